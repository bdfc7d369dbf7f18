"""Stock nbgrader on the kit's own course, for `make bench` to compare with the kit's batch.

A stock course is the kit's source notebooks (notebooks/source/<lesson>/) with a plain
nbgrader config: the same course id and code stub, and nbgrader's default preprocessors,
so `nbgrader autograde` starts a Python kernel for each notebook and runs its test cells
(the visible checks) with its normal Execute step. No hidden checks, no sandbox, no cache.
Each step is the nbgrader command an instructor would type, run once per lesson for the
whole cohort, in the kit's nbgrader environment (autograder/nbgrader/env.py).
"""

import shutil
import subprocess
import time
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.course.paths import NOTEBOOKS
from autograder.nbgrader import env

CONFIG = '''"""A stock nbgrader course: nbgrader's own preprocessors, tests run in a kernel."""

import os

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "graphkit"
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}
c.Execute.timeout = 30
'''

STEPS = ("generate_assignment", "autograde", "generate_feedback", "export")


class StockError(Exception):
    """A stock nbgrader command failed; the message holds the end of what it printed."""


def make_course(root, notebooks=NOTEBOOKS):
    """Lay out a stock course in ``root``: nbgrader_config.py and source/ copied from the kit's notebooks."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    (root / "nbgrader_config.py").write_text(CONFIG, encoding="utf-8")
    for lesson in LESSONS:
        target = root / "source" / lesson.assignment / lesson.notebook
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(lesson.notebook_path(Path(notebooks)), target)
    return root


HANDED_IN_STEPS = ("autograde", "generate_feedback")  # nbgrader fails on a lesson nobody handed in


def handed_in(submitted):
    """The assignment ids someone handed in under ``submitted`` (nbgrader's submitted/<student>/<assignment>/)."""
    return {
        folder.name
        for student in Path(submitted).iterdir()
        if student.is_dir()
        for folder in student.iterdir()
        if folder.is_dir()
    }


def commands(step, assignments=None):
    """The nbgrader command lines of one step: once per lesson, or once for the course (export).

    ``assignments`` (the ids handed in) limits autograde and generate_feedback to those lessons, as
    an instructor runs them; generate_assignment runs for every lesson, as the kit's batch does.
    """
    if step == "export":
        return [["export"]]
    lessons = [
        lesson
        for lesson in LESSONS
        if step not in HANDED_IN_STEPS or assignments is None or lesson.assignment in assignments
    ]
    return [[step, lesson.assignment, "--force"] for lesson in lessons]


def nbgrader(root, args):
    """Run ``nbgrader ARGS`` in the course ``root``; raise StockError when it fails."""
    root = Path(root)
    with env.command(
        *args,
        cwd=root,
        config_dir=root / ".jupyter",
        stock=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as process:
        output, _ = process.communicate()
    if process.returncode != 0:
        tail = "\n".join(output.splitlines()[-15:])
        raise StockError(f"nbgrader {' '.join(args)} failed ({process.returncode}):\n{tail}")
    return output


def release(root):
    """``nbgrader generate_assignment`` for every lesson; return the release/ folder."""
    for args in commands("generate_assignment"):
        nbgrader(root, args)
    return Path(root) / "release"


def grade(root, submissions, stream=None):
    """Grade the hand-ins in ``submissions`` (nbgrader's submitted/ layout) with stock nbgrader in ``root``.

    Every step of STEPS runs, generate_assignment included (as the kit's cold batch does), autograde and
    generate_feedback on the lessons handed in; return {step: wall seconds}.
    """
    root = Path(root)
    if (root / "submitted").exists():
        shutil.rmtree(root / "submitted")
    shutil.copytree(submissions, root / "submitted")
    assignments = handed_in(root / "submitted")
    seconds = {}
    for step in STEPS:
        started = time.perf_counter()
        for args in commands(step, assignments):
            nbgrader(root, args)
        seconds[step] = time.perf_counter() - started
        if stream is not None:
            stream.write(f"  stock nbgrader {step}: {seconds[step]:.1f} s\n")
            stream.flush()
    return seconds
