"""The fixture course's demo cohort: one learner per zoo entry, each lesson notebook filled with its code."""

import json
from pathlib import Path

from autograder.authoring.lessons import reference_blocks
from autograder.course.lessons import LESSONS, read_lesson
from . import zoo

LEARNERS = {"ada": "correct_counter", "bob": "buggy_longest_last"}
ANSWERS = {"ada": {"WORD_COUNT": 6}, "bob": {"WORD_COUNT": 5}}


def filled(release, lesson, code, answers):
    """The release notebook with each solution cell holding the learner's definitions (or answers)."""
    blocks = reference_blocks(code)
    names = {cell.grade_id: cell.settings["names"] for cell in read_lesson(lesson)[0] if cell.kind == "reference"}
    tasks = {name for listed in names.values() for name in listed}
    setup = [source for name, source in blocks.items() if name not in tasks]  # the learner's imports go first
    for cell in release["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in names:
            cell["source"] = "\n\n".join(setup + [blocks[name] for name in names[grade_id] if name in blocks])
        elif cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
            cell["source"] = "\n".join(f"{name} = {value!r}" for name, value in answers.items())
    return release


def build(dest, release, due_dates, cohort=None):
    """Write every learner's notebooks into ``dest`` (nbgrader's submitted/ layout)."""
    entries = {entry.name: entry for entry in zoo.entries()}
    for student, entry in LEARNERS.items():
        code = entries[entry].source()
        for lesson in LESSONS:
            nb = json.loads((Path(release) / lesson.assignment / lesson.notebook).read_text(encoding="utf-8"))
            folder = Path(dest) / student / lesson.assignment
            folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps(filled(nb, lesson, code, ANSWERS[student]), indent=1)
            (folder / lesson.notebook).write_text(text, encoding="utf-8")
    return list(LEARNERS)
