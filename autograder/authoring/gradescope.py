"""Build the Gradescope autograders: one zip per lesson, grading each learner's upload on that lesson alone.

    python -m autograder.authoring.gradescope               # (re)write dist/gradescope/<lesson id>.zip, every lesson
    python -m autograder.authoring.gradescope --lesson ID   # that lesson's zip alone
    python -m autograder.authoring.gradescope --out FOLDER  # somewhere else

Gradescope unpacks the zip into /autograder/source, runs setup.sh there once when it
builds the autograder's image, then runs run_autograder for every submission, with the
learner's upload in /autograder/submission. What run_autograder leaves in
/autograder/results/results.json is the grade. The zip holds:

    setup.sh         a Python venv in /autograder/venv with the kit installed into it (uv pip install
                     --editable /autograder/source, pip where uv cannot, so the kit finds its course files);
                     then, for the build log, the sandbox report of the kit in /autograder/source,
                     GRADESCOPE.md, and the seconds setup.sh took
    run_autograder   python -m autograder grade /autograder/submission --lesson ID --output
                     /autograder/results/results.json, as root, so learner code runs fully isolated; the kit
                     writes results.json itself, and an upload that cannot be graded gets one worth 0 that says
                     why. The course config's c.GradescopeResults.visibility (autograder/grading/visibility.py)
                     is passed as --visibility
    GRADESCOPE.md    the lesson's total points, to set as the assignment's total
    the kit          pyproject.toml, README.md, autograder/, solutions/, exercises/, the course package
                     (graphcourse/), and notebooks/ (config, lesson sources, source notebooks); a course
                     kept anywhere else goes in as it sits below the folder its package is imported from

The zips differ only in run_autograder's --lesson and GRADESCOPE.md: each holds the whole
course, the other lessons' hidden checks included. The upload is the lesson's notebook, with
the modules of exercises/ it uses, or a module alone (graded on the lesson's functions only),
as `python -m autograder grade --lesson ID` reads a folder. A zip holds the reference and the
hidden checks: it is for Gradescope only, never for learners. It holds no learner bundle,
build output, gradebook or virtual environment.

Both scripts read AUTOGRADER_ROOT (default /autograder), the folder that holds source/,
submission/ and results/, so the same layout can be tried on another machine.
"""

import argparse
import shlex
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

from autograder.authoring.learner_files import SKIP
from autograder.authoring.release import ReleaseError, check_sources, default_out
from autograder.course import active, paths
from autograder.course.lessons import LESSONS, function_of, module_of
from autograder.grading import visibility
from autograder.grading.by_lesson import lesson_points

OUT = Path("dist") / "gradescope"  # <lesson id>.zip in it: below the root, or a course's own folder outside the kit

KIT_FILES = ("pyproject.toml", "README.md")
KIT_FOLDERS = ("autograder",)  # the machinery; the course's files follow (course_files)
COURSE = (
    paths.REFERENCES_FOLDER,
    paths.EXERCISES_FOLDER,
    *(f"{paths.NOTEBOOKS_FOLDER}/{name}" for name in ("nbgrader_config.py", paths.LESSONS_FOLDER, "source")),
)
SKIP_SUFFIXES = (".pyc", ".db", ".partial")
STAMP = (1980, 1, 1, 0, 0, 0)  # every entry's time, so two builds give the same bytes

SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image:
# a Python venv in $AUTOGRADER_ROOT/venv with the kit (this folder) installed into it.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"

new_enough() { python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; }
if ! new_enough && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip
fi
if ! new_enough; then
    echo "setup.sh: the kit needs Python 3.10 or newer with venv; pick a newer base image" >&2
    exit 1
fi

python3 -m venv "$ROOT/venv"
PYTHON="$ROOT/venv/bin/python"
if "$PYTHON" -m pip install --quiet --disable-pip-version-check uv \
    && "$PYTHON" -m uv pip install --quiet --python "$PYTHON" --editable "$SOURCE"; then :; else
    echo "setup.sh: uv could not install the kit: pip does (slower)" >&2
    "$PYTHON" -m pip install --quiet --upgrade pip
    "$PYTHON" -m pip install --quiet --editable "$SOURCE"
fi
echo "setup.sh: the kit installed in ${SECONDS} s"
# What no submission changes (drawn examples, large inputs, the reference's times on this image), worked
# out once here instead of for every upload; grading verifies it, and works it out itself without it.
(cd "$SOURCE" && GRAPHKIT_COURSE="{course}" "$ROOT/venv/bin/python" -m autograder.tools.prepare --force) \
    || echo "setup.sh: the course's store was not written; every upload works it out for itself" >&2
# For the build log: which protections of the grading sandbox this image supports, for the kit in
# $SOURCE (run there, as run_autograder runs, so no other copy of the kit in the working folder is
# the one reported on), and the points to configure as the assignment's total.
(cd "$SOURCE" && echo "sandbox report for the kit in $SOURCE:" && "$ROOT/venv/bin/python" -m autograder doctor) || true
cat "$SOURCE/GRADESCOPE.md" || true
echo "setup.sh: set up in ${SECONDS} s"
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this, as root, for every submission: grade $AUTOGRADER_ROOT/submission with the
# hidden checks, learner code fully isolated (as root the sandbox has its namespaces; where the image
# cannot give them, every upload gets results worth 0 that say so, and setup.sh's doctor line says why).
# The kit writes $AUTOGRADER_ROOT/results/results.json itself, in one step: the grade, or results worth 0
# saying why the upload could not be graded. The files in it are named from submission/ down.
set -uo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"

cd "$ROOT/source"
export GRAPHKIT_COURSE="{course}"  # the course this zip grades, and the lesson next
"$ROOT/venv/bin/python" -m autograder grade "$ROOT/submission"{lesson} --output "$RESULTS"{visibility}
status=$?
if [ ! -s "$RESULTS" ]; then  # the kit itself could not start: still results worth 0 that say so
    printf '{"score": 0, "output": "%s (exit status %s); tell your instructor.", "tests": []}\\n' \\
        "The autograder could not start, so your upload was not graded" "$status" > "$RESULTS"
fi
exit 0
"""

POINTS = "GRADESCOPE.md"  # at the top of the zip


def results_config():
    """The traitlets class of the course config's c.GradescopeResults (made when a zip is built: grading never
    imports traitlets)."""
    from traitlets import Dict, Enum
    from traitlets.config import Configurable

    class GradescopeResults(Configurable):
        """The course config's settings of the results.json the Gradescope autograder writes."""

        visibility = Dict(
            value_trait=Enum(visibility.LEVELS),
            default_value={},
            help='{check family, "property" or "answers": Gradescope visibility} of the tests; '
            'every other test is "visible"',
        ).tag(config=True)

    return GradescopeResults


def course_visibility(root=None):
    """The course config's c.GradescopeResults.visibility, checked; GradescopeError naming the file otherwise.

    The config is read as nbgrader reads it (traitlets' loader): it is the course's one setting
    of what learners see, for the zip as for any other grading.
    """
    from traitlets.config.loader import PyFileConfigLoader

    folder = course_source(Path(root) if root else active.KIT_ROOT) / course_root() / paths.NOTEBOOKS_FOLDER
    config_file = folder / "nbgrader_config.py"
    families = {check.family for check in active.part("checks").all_checks()}
    try:
        config = PyFileConfigLoader(config_file.name, path=str(folder)).load_config()
        return visibility.checked(results_config()(config=config).visibility, families)
    except Exception as err:  # noqa: BLE001 - a config that cannot be read or a wrong value: the build says which
        raise GradescopeError(f"{config_file}: c.GradescopeResults.visibility: {err}") from None


def visibility_args(shown):
    """run_autograder's --visibility arguments for ``shown`` ({key: level}), shell-quoted."""
    return "".join(f" --visibility {shlex.quote(f'{key}={level}')}" for key, level in sorted(shown.items()))


def scripts(lesson=None, shown=None):
    """{name: text} of the two scripts, for ``lesson`` of the course being packed (None: every lesson an upload
    holds); shown: the tests' visibility."""
    asked = f" --lesson {shlex.quote(lesson.assignment)}" if lesson is not None else ""
    run = (
        RUN_AUTOGRADER.replace("{course}", active.name())
        .replace("{lesson}", asked)
        .replace("{visibility}", visibility_args(shown or {}))
    )
    return {"setup.sh": SETUP_SH.replace("{course}", active.name()), "run_autograder": run}


def lesson_total(lesson):
    """What the lesson's notebook can earn: the assignment's total points on Gradescope, as in the gradebook."""
    return sum(lesson_points(lesson).values())


def total_line(lesson):
    """The one line that says what to configure."""
    return f"{lesson.assignment}: set the assignment's total to {lesson_total(lesson):g}"


def points_text(lesson, shown=None):
    """GRADESCOPE.md of ``lesson``'s zip: the total to configure for the assignment; and the visibility."""
    checks = active.part("checks").all_checks()
    functions = {function_of(grade_id) for grade_id in lesson_points(lesson)} - {""}
    modules = sorted({f"{module_of(function)}.py" for function in functions})
    hidden = sum(c.points for c in checks if c.function in functions)
    lines = [
        f"# Configuring the Gradescope assignment for {lesson.assignment}",
        "",
        f"This autograder grades an upload on {lesson.assignment} alone. Gradescope shows the score out of the",
        "assignment's total points, which you set when you create it:",
        "",
        f"**{total_line(lesson)}** (what `{lesson.notebook}` can earn, as `make grade` grades it).",
        "",
        f"Ask learners to upload `{lesson.notebook}`, with {' and '.join(f'`{m}`' for m in modules)} when they wrote",
        f"their code there. A module uploaded alone earns the hidden checks of {', '.join(sorted(functions))} only",
        f"({hidden:g} points): the answer cells are graded in the notebook. The results' output states what an upload",
        "is out of on its second line. Another lesson's notebook earns nothing here, and the results say so.",
        "",
        "## When learners see each test",
        "",
    ]
    if shown:
        lines += [f"- `{key}`: {level}" for key, level in sorted(shown.items())]
        lines.append("- every other test: visible")
    else:
        lines.append(
            "Every test is visible (c.GradescopeResults.visibility in the course config sets it per check family)."
        )
    return "\n".join(lines) + "\n"


def import_base():
    """The folder the course package is imported from (the kit's checkout for the graph course): the zip holds the
    course's files as they sit below it, so that run_autograder imports the course by its name from source/."""
    package = Path(active.course().__file__).resolve().parent
    return package.parents[active.name().count(".")]


def course_source(root):
    """Where the course's files are read: in the checkout ``root`` for a course inside the kit, else where it is."""
    base = import_base()
    return root / base.relative_to(active.KIT_ROOT) if base.is_relative_to(active.KIT_ROOT) else base


def course_root():
    """The course's folder (its ROOT), relative to import_base()."""
    base, found = import_base(), active.root().resolve()
    if not found.is_relative_to(base):
        raise GradescopeError(
            f"{found}: the course's ROOT is not below {base}, the folder its package {active.name()} is imported "
            "from; keep solutions/, exercises/ and notebooks/ in or below that folder"
        )
    return found.relative_to(base)


def course_files():
    """The course's paths relative to import_base(): its package (with the packages above it), then COURSE."""
    package = Path(active.course().__file__).resolve().parent.relative_to(import_base())
    parents = [parent / "__init__.py" for parent in package.parents if parent != Path(".")]
    return [package.as_posix(), *(p.as_posix() for p in parents), *((course_root() / n).as_posix() for n in COURSE)]


def left_out():
    """Folders below import_base() whose files the zip takes only through COURSE: the course's solutions/,
    exercises/ and notebooks/ (nbgrader's own folders stay out), and dist/, where the kit writes a course's builds.
    A course whose package is its folder holds them all."""
    top = course_root()
    return {top / OUT.parts[0], *(top / name.split("/")[0] for name in COURSE)}


class GradescopeError(Exception):
    """The autograder zip cannot be built; the message says why."""


def _wanted(rel: Path):
    return not SKIP & set(rel.parts) and not rel.name.endswith(SKIP_SUFFIXES)


def kit_files(root: Path):
    """{zip path: bytes} of the kit's own files the grader needs, caches and generated files left out."""
    files = {name: (root / name).read_bytes() for name in KIT_FILES}
    package, *course = course_files()
    source = course_source(root)
    for top, names, skip in ((root, KIT_FOLDERS, ()), (source, [package], left_out()), (source, course, ())):
        for name in names:
            path = top / name
            if not path.exists():
                raise GradescopeError(f"{path}: missing from the kit")
            paths = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
            for found in paths:
                rel = found.relative_to(top)
                if _wanted(rel) and not any(rel.is_relative_to(folder) for folder in skip):
                    files[rel.as_posix()] = found.read_bytes()
    return files


def contents(root: Path, lesson, kit=None, shown=None):
    """{zip path: (bytes, mode)} of ``lesson``'s zip: the two scripts, executable, GRADESCOPE.md, and the kit.

    kit and shown: the kit's files and the visibility, when already read for another lesson.
    """
    shown = course_visibility(root) if shown is None else shown
    entries = {name: (text.encode("utf-8"), 0o755) for name, text in scripts(lesson, shown).items()}
    entries[POINTS] = (points_text(lesson, shown).encode("utf-8"), 0o644)
    for name, data in (kit_files(root) if kit is None else kit).items():
        entries[name] = (data, 0o644)
    return dict(sorted(entries.items()))


def write_zip(entries, out: Path):
    """Write ``entries`` to ``out`` (replaced in one step), with fixed times and modes."""
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, (data, mode) in entries.items():
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    partial.replace(out)


def zip_of(folder: Path, lesson):
    """Where ``lesson``'s zip goes in ``folder``."""
    return Path(folder) / f"{lesson.assignment}.zip"


def build(root: Path, folder: Path, lessons=None):
    """Write the autograder zip of each of ``lessons`` (default: every lesson) for the kit at ``root`` into
    ``folder``; return {lesson: its entries}."""
    root = Path(root).resolve()
    try:
        check_sources(root)
    except ReleaseError as err:
        raise GradescopeError(str(err)) from err
    kit, shown = kit_files(root), course_visibility(root)
    built = {}
    for lesson in LESSONS if lessons is None else lessons:
        built[lesson] = contents(root, lesson, kit, shown)
        write_zip(built[lesson], zip_of(folder, lesson))
    return built


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m autograder.authoring.gradescope", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--root", type=Path, default=active.KIT_ROOT, help="the kit checkout to pack (default: this one)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="the folder to write the zips to (default: ROOT/dist/gradescope, or the course's own folder's "
        "dist/gradescope for a course kept outside the kit)",
    )
    parser.add_argument("--lesson", metavar="ID", help="build this lesson's zip alone (its assignment id)")
    args = parser.parse_args(argv)
    known = {lesson.assignment: lesson for lesson in LESSONS}
    if args.lesson is not None and args.lesson not in known:
        print(
            f"gradescope: {args.lesson!r} is no lesson of the course; give one of {', '.join(known)} "
            "(make gradescope LESSON=ID)",
            file=sys.stderr,
        )
        return 2
    root = args.root.resolve()
    folder = args.out if args.out is not None else default_out(root, OUT)
    if root == active.KIT_ROOT:  # the zip ships the course's store (autograder/grading/prepared.py), current
        subprocess.run([sys.executable, "-m", "autograder.tools.prepare"], cwd=root, check=False)
    try:
        built = build(root, folder, [known[args.lesson]] if args.lesson else None)
    except GradescopeError as err:
        print(f"gradescope: {err}", file=sys.stderr)
        return 1
    for lesson, entries in built.items():
        print(
            f"wrote {zip_of(folder, lesson)} ({len(entries)} files): upload it as the autograder of the Gradescope "
            f"assignment for {lesson.assignment}, and set the assignment's total to {lesson_total(lesson):g}"
        )
    print(
        "each zip's GRADESCOPE.md says the same, with what an upload can earn; the zips hold the hidden checks: "
        "never give them to learners"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
