"""Build the learner bundle: everything a learner gets, and nothing a learner must not see.

    python -m autograder.authoring.release                        # (re)write dist/learner/
    python -m autograder.authoring.release --root DIR --out DIR   # build another checkout of the kit, elsewhere

The bundle is made of, and only of:

    notebooks/<assignment>/   the release notebooks, made by `nbgrader generate_assignment`
                              in a temporary copy of the course (notebooks/ is never written)
    exercises/<module>.py     the stubs and exercises/tasks.py, generated from the references here and now
    exercises/__init__.py, draw.py, layout.py, loader.py, pytest_impl.py, exercises/tests/,
    the clickable graph (graph_widget.py with its .js and .css, walkthrough.py, widget_answers.py)
                              copied as they are
    everything under learner/ README.md, Makefile, conftest.py, CI workflow, requirements ...

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
from autograder.authoring.stubs import expected_files
from autograder.course.lessons import LESSONS
from autograder.course import active
from autograder.course.paths import reference_modules
from autograder.course.markers import MARKERS, solution_regions
from autograder.nbgrader import env

OUT = Path("dist") / "learner"  # relative to the root

PUBLIC = (
    "exercises/__init__.py",
    "exercises/bounds.py",
    "exercises/draw.py",
    "exercises/layout.py",
    "exercises/loader.py",
    "exercises/notebook.py",
    "exercises/pytest_impl.py",
    "exercises/strategies.py",
    "exercises/walkthrough.py",
    "exercises/graph_widget.py",
    "exercises/graph_widget.js",
    "exercises/graph_widget.css",
    "exercises/widget_answers.py",
)  # copied as they are, with exercises/tests/
SKIP = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".hypothesis", ".DS_Store"}
PRIVATE_IMPORT = re.compile(r"^\s*(?:from|import)\s+(?:autograder|solutions)\b", re.MULTILINE)


class ReleaseError(Exception):
    """The bundle cannot be built, or would leak; the message says what and where."""


def _tree(folder: Path, prefix: str):
    """{bundle path: bytes} for every file under ``folder``, caches left out."""
    files = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and not SKIP & set(rel.parts) and path.suffix != ".pyc":
            files[f"{prefix}{rel.as_posix()}"] = path.read_bytes()
    return files


def check_sources(root: Path):
    """Fail unless the committed source notebooks are what the reference and the lesson files give."""
    course = root / active.root().relative_to(active.KIT_ROOT)  # the course's folder in that checkout
    for path in lessons.stale(course / "notebooks", course / "solutions"):
        raise ReleaseError(f"{path.relative_to(root)} is out of date with solutions/: run `make notebooks`")


def release_notebooks(root: Path):
    """{bundle path: bytes} of the release notebooks, generated in a throwaway copy of the course."""
    with tempfile.TemporaryDirectory(prefix="graphkit-release-") as tmp:
        course = Path(tmp) / "notebooks"
        generated = ("gradebook.db", "release", "submitted", "autograded", "feedback", ".ipynb_checkpoints")
        shutil.copytree(root / "notebooks", course, ignore=shutil.ignore_patterns(*generated))
        # One run for every assignment: each nbgrader start costs seconds.
        process = env.command("generate_assignment", "*", "--no-db", cwd=course, config_dir=Path(tmp) / "jupyter_config",
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stdout, stderr = process.communicate()
        files = {}
        for lesson in LESSONS:
            released = course / "release" / lesson.assignment
            if process.returncode != 0 or not (released / lesson.notebook).is_file():
                raise ReleaseError(
                    f"nbgrader generate_assignment did not release {lesson.assignment} (exit {process.returncode}):\n"
                    f"{stdout[-2000:]}{stderr[-2000:]}"
                )
            files.update(_tree(released, f"notebooks/{lesson.assignment}/"))
        return files


def bundle(root: Path):
    """{bundle path: bytes} of the whole learner bundle."""
    root = Path(root)
    check_sources(root)
    files = release_notebooks(root)
    for path, text in expected_files(root / "solutions", root / "exercises", root / "notebooks").items():
        files[f"exercises/{path.name}"] = text.encode("utf-8")
    for name in PUBLIC:
        files[name] = (root / name).read_bytes()
    files.update(_tree(root / "exercises" / "tests", "exercises/tests/"))
    files.update(_tree(root / "learner", ""))
    return dict(sorted(files.items()))


def solution_lines(root: Path):
    """Lines of every solution region of the reference and the lesson files.

    Lines too short to say anything ("}", "else:") are left out.
    """
    sources = [*reference_modules(root / "solutions").values(), *(lesson.source_path(root / "notebooks") for lesson in LESSONS)]
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
    parser.add_argument("--root", type=Path, default=active.KIT_ROOT, help="the kit checkout to build from (default: this one)")
    parser.add_argument("--out", type=Path, help="where to write the bundle (default: ROOT/dist/learner)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out = args.out if args.out is not None else root / OUT
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
