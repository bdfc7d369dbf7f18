"""The course's own teaching cells (a picture, a plot) are never the learner's problem when a hand-in is graded."""

import copy
import json
import subprocess
import sys

import pytest

from autograder.course.lessons import LESSONS
from autograder.grading.submission import from_notebook_json, teaching
from exercises import notebook
from tests.conftest import ROOT


def source_notebook(assignment):
    lesson = next(lesson for lesson in LESSONS if lesson.assignment == assignment)
    return lesson, json.loads(lesson.notebook_path().read_text(encoding="utf-8"))


def test_every_ungraded_code_cell_of_every_lesson_is_a_teaching_cell():
    """Each lesson's code cells without nbgrader metadata are the course's; its answer and reference cells are not."""
    for lesson in LESSONS:
        _, nb = source_notebook(lesson.assignment)
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            meta = notebook.nbgrader_meta(cell)
            assert teaching(cell) == (not meta), f"{lesson.assignment} {cell['id']}"


def test_teaching_cells_are_left_out_and_the_rest_keep_their_labels():
    """Unchanged teaching cells give no chunk; every other cell keeps the label of its position in the notebook."""
    lesson, nb = source_notebook("lesson5_memory")
    chunks = from_notebook_json(nb, lesson.notebook).chunks
    labels = [chunk.label for chunk in chunks]
    positions = {f"{lesson.notebook} cell {i}": cell for i, cell in enumerate(nb["cells"], start=1)}
    drawn = [label for label, cell in positions.items() if "draw(" in notebook.cell_source(cell)]
    assert drawn and not set(drawn) & set(labels)
    assert all(notebook.nbgrader_meta(positions[label]) for label in labels), "only graded or solution cells are left"


def test_a_teaching_cell_the_learner_changed_is_theirs():
    """Edited, or copied into a solution cell, a teaching cell's code runs as the learner's own."""
    lesson, nb = source_notebook("lesson5_memory")
    index = next(i for i, cell in enumerate(nb["cells"]) if teaching(cell))
    edited = copy.deepcopy(nb)
    edited["cells"][index]["source"] = notebook.cell_source(nb["cells"][index]) + "\nprint('mine')\n"
    assert f"{lesson.notebook} cell {index + 1}" in [
        c.label for c in from_notebook_json(edited, lesson.notebook).chunks
    ]
    marked = copy.deepcopy(nb)
    marked["cells"][index]["metadata"] = {"nbgrader": {"solution": True, "grade": False, "grade_id": "mine"}}
    assert not teaching(marked["cells"][index])


@pytest.mark.slow
def test_grading_lesson_five_lists_no_problem_for_a_teaching_cell():
    """`python -m autograder grade` on lesson 5's reference notebook: full marks and no problem while loading."""
    lesson, _ = source_notebook("lesson5_memory")
    run = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(lesson.notebook_path())],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "problems while loading your code" not in run.stdout, run.stdout
    assert "draw" not in run.stdout and "matplotlib" not in run.stdout, run.stdout
    first = run.stdout.splitlines()[0]
    score, most = first.rsplit(" ", 1)[1].split("/")
    assert score == most, first
