"""Build the learner bundle: everything a learner gets, and nothing a learner must not see.

    python -m autograder.authoring.release                        # (re)write dist/learner/
    python -m autograder.authoring.release --root DIR --out DIR   # build another checkout of the kit, elsewhere

The bundle is made of, and only of:

    notebooks/<assignment>/   the release notebooks, made by `nbgrader generate_assignment`
                              in a temporary copy of the course (notebooks/ is never written)
    exercises/<module>.py     the stubs, exercises/tasks.py and notebook.py, generated here and now
    exercises/...             every other file of the course's exercises/ (its helpers, its public
                              tests), copied as it is
    README.md, Makefile, ...  the learner files: the course's own (learner/ in its package), and the kit's
                              skeleton for the rest, with a README written from the course's lessons
                              (learner_files.py)

The whole bundle is built in memory, then scanned: a solution or hidden-test
marker, a line of a solution region, or an import of the kit's private
packages stops the build before anything is written. The
output folder is then replaced as a whole, so two builds give the same files.
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.authoring import lessons
from autograder.authoring.learner_files import learner_files, tree
from autograder.authoring.stubs import expected_files
from autograder.course import active, paths
from autograder.course.lessons import LESSONS
from autograder.course.markers import MARKERS, solution_regions
from autograder.course.paths import EXERCISES_FOLDER, NOTEBOOKS_FOLDER, REFERENCES_FOLDER, reference_modules
from autograder.nbgrader import env

OUT = Path("dist") / "learner"  # relative to the root

PRIVATE_IMPORT = re.compile(rf"^\s*(?:from|import)\s+(?:autograder|{REFERENCES_FOLDER})\b", re.MULTILINE)


class ReleaseError(Exception):
    """The bundle cannot be built, or would leak; the message says what and where."""


def within_kit():
    """Does the course sit inside the kit's checkout (as the graph course does), rather than in a folder of its own?"""
    return paths.ROOT.is_relative_to(active.KIT_ROOT)


def default_out(root: Path, out: Path):
    """Where a build writes by default: ``out`` (relative) in the checkout ``root`` when the course sits inside the
    kit, else in the course's own folder."""
    return (root if within_kit() else paths.ROOT) / out


def course_folder(root: Path):
    """The course's folder: in the checkout ``root`` where the course sits inside the kit, else where it is."""
    if within_kit():
        return root / paths.ROOT.relative_to(active.KIT_ROOT)
    return paths.ROOT


def check_sources(root: Path):
    """Fail unless the committed source notebooks are what the reference and the lesson files give."""
    course = course_folder(root)
    for path in lessons.stale(course / NOTEBOOKS_FOLDER, course / REFERENCES_FOLDER):
        raise ReleaseError(f"{path} is out of date with {REFERENCES_FOLDER}/: run `make notebooks`")


def release_notebooks(root: Path):
    """{bundle path: bytes} of the release notebooks, generated in a throwaway copy of the course."""
    with tempfile.TemporaryDirectory(prefix="graphkit-release-") as tmp:
        course = Path(tmp) / NOTEBOOKS_FOLDER
        generated = ("gradebook.db", "release", "submitted", "autograded", "feedback", ".ipynb_checkpoints")
        shutil.copytree(course_folder(root) / NOTEBOOKS_FOLDER, course, ignore=shutil.ignore_patterns(*generated))
        # One run for every assignment: each nbgrader start costs seconds.
        process = env.command(
            "generate_assignment",
            "*",
            "--no-db",
            cwd=course,
            config_dir=Path(tmp) / "jupyter_config",
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        stdout, stderr = process.communicate()
        files = {}
        for lesson in LESSONS:
            released = course / "release" / lesson.assignment
            if process.returncode != 0 or not (released / lesson.notebook).is_file():
                raise ReleaseError(
                    f"nbgrader generate_assignment did not release {lesson.assignment} (exit {process.returncode}):\n"
                    f"{stdout[-2000:]}{stderr[-2000:]}"
                )
            files.update(tree(released, f"{NOTEBOOKS_FOLDER}/{lesson.assignment}/"))
        return files


def bundle(root: Path):
    """{bundle path: bytes} of the whole learner bundle."""
    root = Path(root)
    check_sources(root)
    files = release_notebooks(root)
    course = course_folder(root)
    files.update(tree(course / EXERCISES_FOLDER, f"{EXERCISES_FOLDER}/"))
    folders = (course / REFERENCES_FOLDER, course / EXERCISES_FOLDER, course / NOTEBOOKS_FOLDER)
    for path, text in expected_files(*folders).items():
        files[f"{EXERCISES_FOLDER}/{path.name}"] = text.encode("utf-8")
    files.update(learner_files(root, course / REFERENCES_FOLDER, course / NOTEBOOKS_FOLDER))
    return dict(sorted(files.items()))


def solution_lines(root: Path):
    """Lines of every solution region of the reference and the lesson files.

    Lines too short to say anything ("}", "else:") are left out.
    """
    course = course_folder(root)
    sources = [
        *reference_modules(course / REFERENCES_FOLDER).values(),
        *(lesson.source_path(course / NOTEBOOKS_FOLDER) for lesson in LESSONS),
    ]
    return {
        line.strip()
        for path in sources
        for region in solution_regions(path.read_text(encoding="utf-8"))
        for line in region
        if len(line.strip()) >= 6 and re.search(r"[A-Za-z]", line)
    }


def _readable(name, data):
    """A file's text as a reader sees it: a notebook's cell sources rather than its JSON."""
    text = data.decode("utf-8", errors="replace")
    if name.endswith(".ipynb"):
        text = "\n".join("".join(cell.get("source", "")) for cell in json.loads(text).get("cells", []))
    return text


def leaks(files, root: Path):
    """Every reason the bundle must not be published, as 'path: problem' lines."""
    banned = solution_lines(root)
    problems = []
    for name, data in files.items():
        text = data.decode("utf-8", errors="replace")
        problems += [f"{name}: contains the marker {m!r}" for m in MARKERS if m in text]
        readable = _readable(name, data)
        private = PRIVATE_IMPORT.search(readable) if name.endswith((".py", ".ipynb")) else None
        if private:
            problems.append(f"{name}: imports the kit's private code ({private.group().strip()!r})")
        shared = sorted(banned & {line.strip() for line in readable.splitlines()})
        problems += [f"{name}: contains the solution line {line!r}" for line in shared]
    return problems


def write(files, out: Path, root: Path):
    """Replace ``out`` with exactly ``files``."""
    out, root = out.resolve(), root.resolve()
    if out == root or out in root.parents or (root in out.parents and (root / "dist") not in [out, *out.parents]):
        raise ReleaseError(f"{out}: refusing to replace this folder; write the bundle under dist/ or outside the kit")
    if (out / ".git").exists():
        raise ReleaseError(f"{out}: is a git checkout; refusing to wipe it, choose another --out")
    partial = out.parent / f".{out.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    for name, data in files.items():
        path = partial / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if out.exists():
        shutil.rmtree(out)
    partial.rename(out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m autograder.authoring.release", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root", type=Path, default=active.KIT_ROOT, help="the kit checkout to build from (default: this one)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="where to write the bundle (default: ROOT/dist/learner, or the "
        "course's own folder's dist/learner for a course kept outside the kit)",
    )
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out = args.out if args.out is not None else default_out(root, OUT)
    try:
        files = bundle(root)
        problems = leaks(files, root)
        if problems:
            raise ReleaseError("the bundle would leak, nothing written:\n  " + "\n  ".join(problems))
        write(files, out, root)
    except ReleaseError as err:
        print(f"release: {err}", file=sys.stderr)
        return 1
    print(f"wrote {len(files)} files to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
