"""The one-submission grader gives exactly what `make grade` gives, lesson by lesson and check by check.

The demo cohort, plus learners made from zoo entries, is graded once by the batch; then every
learner's folder of hand-ins is graded again, independently, the way `python -m autograder grade`
grades it. Each learner's score per lesson, their total, and every check's and answer cell's
points must equal grades.csv and checks.csv. The one-submission grader knows no due dates, so it
is compared with grades.csv's raw_score, the score before the course's late policy. The learners
hand in the first two lessons and, those of the demo cohort who go further, one later lesson:
every learner twice over every lesson would cost minutes, and each lesson is graded by the same code.
A notebook that is byte for byte one an earlier learner hands in for the same lesson (ada's reference
code in learners whose mistakes lie in other lessons) is left out: grading it again shows nothing new.
"""

import csv
import dataclasses
import io
import shutil
from concurrent.futures import ProcessPoolExecutor

import pytest

from autograder.course.lessons import LESSONS
from autograder.grading import by_lesson
from autograder.grading.graded_tests import parts_of
from autograder.pipeline import batch
from graphcourse import demo
from tests.conftest import prepared_course

pytestmark = pytest.mark.slow

ZOO_LEARNERS = (
    demo.Learner(
        "zoo1", "assigns at a fan-out; counts 6 edges", code=("buggy_assign_fan_out",), answers={"EDGE_COUNT": 6}
    ),
    demo.Learner("zoo3", "scans the graph for readers at every node", code=("buggy_quadratic_reader_scan",)),
    demo.Learner(
        "zoo4", "users_of sorted; inputs_of deduplicated", code=("buggy_users_of_sorted", "buggy_inputs_of_dedup")
    ),
    demo.Learner(
        "zoo5", "evaluate sorts the graph; picks B", code=("buggy_evaluate_sorts_graph",), answers={"CHOICE": "B"}
    ),
    demo.Learner("zoo6", "correct, with an explicit stack", code=("correct_stack",)),
    demo.Learner("zoo7", "correct, over an edge list", code=("correct_edge_list",), late=("lesson2_backward",)),
    demo.Learner(
        "zoo8",
        "answers of the wrong shape: a list for a letter, an int past float range",
        answers={"CHOICE": ["C"], "ASSIGN_X": 10**400},
    ),
)
THROUGH = 3  # lessons 1 and 2, and the first later one (a Var misconception, a correct style, the stub among them)
COHORT = tuple(
    dataclasses.replace(learner, through=min(learner.through, THROUGH)) for learner in demo.COHORT + ZOO_LEARNERS
)


def without_repeats(handed_in):
    """Remove each on-time notebook whose bytes an earlier learner (by name) hands in for the same lesson."""
    late = {(learner.student_id, assignment) for learner in COHORT for assignment in learner.late}
    seen = set()
    for notebook in sorted(handed_in.glob("*/*/*.ipynb")):
        student, assignment = notebook.parent.parent.name, notebook.parent.name
        key = (assignment, notebook.read_bytes())
        if key in seen and (student, assignment) not in late:
            shutil.rmtree(notebook.parent)
        seen.add(key)


def grade_folder(folder):
    graded = by_lesson.grade_path(folder)
    results = by_lesson.results_json(graded)
    return (
        folder.name,
        graded.by_lesson(),
        graded.score,
        {(parts_of(t).get("check") or parts_of(t)["answer"]): t["score"] for t in results["tests"]},
    )


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    root = tmp_path_factory.mktemp("parity")
    out, handed_in = root / "out", root / "handed_in"
    course = prepared_course(out)
    demo.build(handed_in, out / "release", course.due_dates(), cohort=COHORT)
    without_repeats(handed_in)
    batch.run(out, submissions=handed_in, stream=io.StringIO())
    with ProcessPoolExecutor(max_workers=2) as pool:
        cli = {
            name: (lessons, total, tests)
            for name, lessons, total, tests in pool.map(grade_folder, sorted(handed_in.iterdir()))
        }
    grades = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    checks = {row["student_id"]: row for row in csv.DictReader((out / "checks.csv").open(encoding="utf-8"))}
    return cli, grades, checks


def test_every_learner_graded_by_both(both):
    cli, _grades, checks = both
    assert set(cli) == {learner.student_id for learner in COHORT} == set(checks)


def test_scores_per_lesson_and_totals_equal_grades_csv(both):
    """Each learner's score for each lesson handed in, and their total, to the point."""
    cli, grades, _checks = both
    batch_scores = {}
    for row in grades:
        if row["timestamp"]:  # a row without a timestamp is a lesson the learner did not hand in
            batch_scores.setdefault(row["student_id"], {})[row["assignment"]] = float(row["raw_score"])
    for student, (lessons, total, _tests) in cli.items():
        mine = {assignment: score for assignment, (score, _most) in lessons.items()}
        assert mine == pytest.approx(batch_scores.get(student, {}), abs=1e-6), student
        assert total == pytest.approx(sum(batch_scores.get(student, {}).values()), abs=1e-6), student


def test_every_check_and_answer_cell_equals_checks_csv(both):
    """Every hidden check and answer cell: the points the CLI gives equal the batch's checks.csv."""
    cli, _grades, checks = both
    for student, (_lessons, _total, tests) in cli.items():
        row = checks[student]
        for column, value in row.items():
            if column in ("student_id", "problems", "provenance"):
                continue
            if value == "":
                assert column not in tests, (student, column)
            else:
                assert tests[column] == pytest.approx(float(value), abs=1e-6), (student, column)
        assert set(tests) <= set(row), student


def test_late_work_costs_the_course_policy(both):
    """ken and zoo7 handed in 3 h late: grades.csv takes the policy's share (10% per started day) off their score."""
    _cli, grades, _checks = both
    late = [r for r in grades if r["student_id"] in ("ken", "zoo7") and float(r["late_submission_penalty"] or 0)]
    assert len(late) == 2
    for row in late:
        assert float(row["late_submission_penalty"]) == pytest.approx(0.1 * float(row["raw_score"]))
        assert float(row["score"]) == pytest.approx(0.9 * float(row["raw_score"]))


def test_answers_of_the_wrong_shape_cost_only_their_cells(both):
    """CHOICE = ["C"] and an enormous ASSIGN_X: 0 for those two answer cells, full marks for everything else."""
    _cli, grades, checks = both
    row = checks["zoo8"]
    assert row["answer_multiple_choice"] == "0" and row["answer_assign_instead_of_add"] == "0"
    scores = {
        r["assignment"]: float(r["raw_score"]) - float(r["max_score"])
        for r in grades
        if r["student_id"] == "zoo8" and r["timestamp"]
    }  # the lessons zoo8 handed in
    lost = {LESSONS[0].assignment: -1.0, LESSONS[1].assignment: -1.0}  # the multiple choice and ASSIGN_X
    assert scores == {
        **dict.fromkeys(next(learner for learner in COHORT if learner.student_id == "zoo8").handed_in(), 0.0),
        **lost,
    }


def test_the_parity_covers_lessons_misconceptions_and_problems(both):
    """The cohort is not trivially equal: some lesson scores are partial, some zero, some full, and one is
    unreadable."""
    cli, _grades, _checks = both
    scores = [score / most for lessons, _t, _x in cli.values() for score, most in lessons.values()]
    assert any(s == 1 for s in scores) and any(s == 0 for s in scores) and any(0 < s < 1 for s in scores)
    assert len({assignment for lessons, _t, _x in cli.values() for assignment in lessons}) == min(THROUGH, len(LESSONS))
