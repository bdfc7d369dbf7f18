"""`make grade JOBS=N`: the number of worker processes changes how fast a cohort is graded, never what it gets.

A small cohort is graded from scratch twice, into two folders: with one worker (the hidden
checks in one process, the feedback in the batch's own) and with two (two of each). Every
output must be the same byte for byte, but for the seconds grading took, which are
measured: the hidden checks' ``execution_time`` in results JSON, and the grading time
column of the cohort report (compared here with those figures set aside).
"""

import dataclasses
import io
import re

import pytest

from autograder.course.lessons import LESSONS
from autograder.pipeline import batch, cohort_report
from autograder.pipeline.progress import Progress
from graphcourse import demo
from tests.conftest import prepared_course

LESSON1, LESSON2 = (lesson.assignment for lesson in LESSONS[:2])  # the demo cohort's first two lessons
# The first two lessons (a Learner's default): the workers split hand-ins the same way whatever the lesson.
COHORT = (
    demo.Learner("ada", "everything right"),
    demo.Learner(
        "alan",
        "KeyError instead of ValueError; ORDER wrong",
        code=("buggy_evaluate_keyerror",),
        answers={"ORDER": ["q", "p", "L"]},
    ),
    demo.Learner("dennis", "cut off mid-save", broken=(LESSON1,), missing=(LESSON2,)),
)
WORKERS = (1, 2)
EXECUTION_TIME = re.compile(rb'\n *"execution_time": [0-9.e+-]+,?')  # the hidden checks' own measured seconds
GRADED_AT = re.compile(rb'\n *"graded_at": "[0-9TZ:-]+",?')  # when each grade was made (its provenance)
GRADING_TIME = re.compile(
    r'<td class="n">(?:[0-9.]+ s|[0-9]+ min [0-9]+ s|\u2013)</td></tr>'
)  # the report's last column


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """{workers: (OUT, the Cohort batch.run returned)} for the same hand-ins; and the two-worker folder's report on a
    rerun."""
    root = tmp_path_factory.mktemp("jobs")
    handed_in = root / "handed_in"
    first = prepared_course(root / "out1")
    prepared_course(root / "out2")
    demo.build(handed_in, first.root / "release", first.due_dates(), cohort=COHORT)
    runs = {
        n: (root / f"out{n}", batch.run(root / f"out{n}", submissions=handed_in, workers=n, stream=io.StringIO()))
        for n in WORKERS
    }
    report = (root / "out2" / "cohort_report.html").read_bytes()
    rerun = batch.run(root / "out2", submissions=handed_in, workers=2, stream=io.StringIO())
    return runs, report, rerun


def outputs(out, pattern):
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.glob(pattern)) if path.is_file()}


def untimed(cohort):
    """The cohort with every hand-in's grading seconds set to 0 (when the report has them)."""
    if "seconds" not in {f.name for f in dataclasses.fields(cohort_report.Entry)}:
        return cohort
    learners = {
        student: {a: dataclasses.replace(e, seconds=0.0) for a, e in entries.items()}
        for student, entries in cohort.learners.items()
    }
    return dataclasses.replace(cohort, learners=learners)


@pytest.mark.slow
def test_exports_are_the_same_for_any_number_of_workers(graded):
    runs, _report, _rerun = graded
    (one, _), (two, _) = runs[1], runs[2]
    for name in ("grades.csv", "checks.csv"):
        assert (one / name).read_bytes() == (two / name).read_bytes(), name


@pytest.mark.slow
def test_feedback_pages_are_the_same_for_any_number_of_workers(graded):
    runs, _report, _rerun = graded
    pages = [outputs(runs[n][0], "feedback/*/*/*.html") for n in WORKERS]
    assert len(pages[0]) == len(outputs(runs[1][0], "submitted/*/*/*.ipynb")), sorted(pages[0])  # a page per hand-in
    assert pages[0] == pages[1]


@pytest.mark.slow
def test_results_json_is_the_same_but_for_measured_seconds(graded):
    runs, _report, _rerun = graded
    results = [
        {
            path: GRADED_AT.sub(b"", EXECUTION_TIME.sub(b"", text))
            for path, text in outputs(runs[n][0], "results/*/*.json").items()
        }
        for n in WORKERS
    ]
    assert len(results[0]) == len(outputs(runs[1][0], "submitted/*/*/*.ipynb"))
    assert results[0] == results[1]


@pytest.mark.slow
def test_cohort_report_is_the_same_but_for_grading_seconds(graded):
    runs, _report, _rerun = graded
    pages = [GRADING_TIME.subn("", (runs[n][0] / "cohort_report.html").read_text(encoding="utf-8")) for n in WORKERS]
    assert pages[0][1] == len(COHORT)  # one grading time cell per learner, set aside
    assert pages[0] == pages[1]
    rows = [untimed(runs[n][1]).learners for n in WORKERS]  # what batch.run returns: every learner's row
    assert rows[0] == rows[1] and sorted(rows[0]) == sorted(learner.student_id for learner in COHORT)


@pytest.mark.slow
def test_grading_seconds_are_measured_and_kept_by_a_rerun(graded):
    runs, report, rerun = graded
    out, cohort = runs[2]
    if "seconds" not in {f.name for f in dataclasses.fields(cohort_report.Entry)}:
        pytest.skip("the cohort report has no grading seconds")
    timed = {(s, a): e.seconds for s, entries in cohort.learners.items() for a, e in entries.items()}
    assert all(seconds > 0 for (s, a), seconds in timed.items() if (s, a) != ("dennis", LESSON1)), timed
    assert timed[("dennis", LESSON1)] == 0.0  # unreadable: nothing was graded
    assert rerun.regraded == []
    assert {(s, a): e.seconds for s, entries in rerun.learners.items() for a, e in entries.items()} == timed
    assert (out / "cohort_report.html").read_bytes() == report


def test_progress_in_a_log_is_a_few_lines():
    """A stream that is no terminal gets a line per quarter and the last one, not a line per step."""
    log = io.StringIO()
    bar = Progress("hidden checks", 200, log)
    for step in range(200):
        bar.advance()
        if step == 120:
            bar.write("a note above the bar")
    bar.close()
    lines = log.getvalue().splitlines()
    assert 4 <= len(lines) <= 7, lines
    assert "\r" not in log.getvalue()
    assert "a note above the bar" in lines
    assert lines[-1].startswith("hidden checks") and "200/200" in lines[-1], lines
