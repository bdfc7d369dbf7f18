"""What makes a batch refuse to run, checked before anything is read or started: the input named is not there.

Each check returns the message the batch stops with, naming the input and the fix, or "" when it may go
on. ``make grade`` and ``make collect`` ask them first (autograder/pipeline/grade.py), so a refusal costs
no import of nbgrader and no pool; the steps that read the input ask them again (handins.mirror,
collect.collect), for a caller that starts there.
"""

import json
import os
import zipfile
from pathlib import Path

from autograder.course import active
from autograder.course.lessons import LESSONS

STATE = ("cache", "state.json")  # OUT's state (autograder/nbgrader/course_folder.py): which input OUT holds


def submissions_folder(source, out):
    """A submissions folder that is not one, or one inside OUT/submitted, which is made from it."""
    source, submitted = Path(source).resolve(), Path(out).resolve() / "submitted"
    if not source.is_dir():
        return f"{source}: no such folder; pass a folder laid out as <student_id>/<assignment_id>/<notebook>"
    if source == submitted or submitted in source.parents or source in submitted.parents:
        return f"{source}: the hand-ins must be outside {submitted}, which is made from them"
    return no_lesson(source)


MAX_LOOKED_AT = 10_000  # learners' folders looked into for an assignment folder of the course


def no_lesson(source):
    """A submissions folder whose hand-ins are all for assignments the course does not have (another course's)."""
    names = {lesson.assignment for lesson in LESSONS}
    found = set()
    try:
        with os.scandir(source) as learners:
            for number, learner in enumerate(learners):
                if number == MAX_LOOKED_AT:
                    return ""
                if learner.is_dir(follow_symlinks=False) and not learner.name.startswith("."):
                    with os.scandir(learner.path) as assignments:
                        found |= {entry.name for entry in assignments if entry.is_dir(follow_symlinks=False)}
                if found & names:
                    return ""
    except OSError:  # a folder it cannot read: the batch's own reading says so
        return ""
    if not found:
        return ""
    return (
        f"{source}: its hand-ins match no lesson of the course {active.name()!r} (they are for "
        f"{', '.join(sorted(found)[:5])}; the course's lessons are {', '.join(sorted(names))}); grade them with "
        "their own course (GRAPHKIT_COURSE=...), or pass the folder of this course's hand-ins"
    )


def other_cohort(out, label, held):
    """OUT holding another input's hand-ins (``held``: the label state.json keeps), which are never mixed."""
    root = Path(out).resolve()
    if held in (None, label) or not any((root / "submitted").glob("*/*")):
        return ""
    return (
        f"{root} holds the grades of another cohort ({held}); "
        "grade this one into another folder (OUT=...) or delete that folder first"
    )


def held_input(out):
    """The label of the input OUT holds, as its state.json says (None when it says nothing)."""
    try:
        state = json.loads(Path(out, *STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return state.get("input") if isinstance(state, dict) else None


def assignment_name(assignment):
    """An ASSIGNMENT= that is none of the course's."""
    names = [lesson.assignment for lesson in LESSONS]
    if assignment is not None and assignment not in names:
        return f"ASSIGNMENT={assignment}: the course has no such assignment; use one of {', '.join(names)}"
    return ""


def download(zip_file):
    """A download that is missing or that is no zip file the grader can read."""
    zip_file = Path(zip_file)
    if not zip_file.is_file():
        return f"{zip_file}: no such file; pass the zip downloaded from the LMS as ZIP=..."
    try:
        with zipfile.ZipFile(zip_file):
            pass
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as err:
        return f"{zip_file.name}: not a zip file the grader can read ({err}); download the submissions again"
    return ""


def of_batch(out, submissions=None, zip_file=None, assignment=None):
    """The first refusal a batch on these arguments meets before reading anything, or ""."""
    if zip_file:
        return download(zip_file) or assignment_name(assignment) or other_cohort(out, "collected", held_input(out))
    if submissions:
        label = str(Path(submissions).resolve())
        return submissions_folder(submissions, out) or other_cohort(out, label, held_input(out))
    return other_cohort(out, "demo", held_input(out))
