"""The instructor's round trip: a grade and a comment set by hand in the gradebook, and a late penalty, in every output.

A small cohort is graded; then a grader gives barbara's backward cell more points and a
comment through nbgrader's own API (nbgrader.api.Gradebook, what the formgrader writes
with), and the batch runs again, then once more with nothing changed. ken hands in
lesson 1 late: his score after the penalty must be the same in every view that shows it.
"""

import csv
import html
import io
import json
import re
from types import SimpleNamespace

import pytest

from autograder.course.lessons import LESSONS
from autograder.pipeline import batch
from graphcourse import demo
from tests.conftest import prepared_course
from tests.test_batch import snapshot

pytestmark = pytest.mark.slow

LESSON1, LESSON2 = LESSONS[0], LESSONS[1]
COHORT = (
    demo.Learner(
        "barbara",
        "users_of lists a double reader twice; assigns at a fan-out",
        code=("buggy_users_of_duplicates", "buggy_assign_fan_out"),
        answers={"ASSIGN_X": 128},
    ),
    demo.Learner(
        "ken",
        "pull-style code, lesson 1 late",
        code=("correct_pull",),
        late=(LESSON1.assignment,),
        missing=(LESSON2.assignment,),
    ),
    demo.Learner("margaret", "the release notebook, untouched", stub=True, missing=(LESSON2.assignment,)),
)
GRADE_CELL, COMMENT_CELL = "backward_correct", "backward_solution"
COMMENT = "Add at a fan-out: `+=`, not `=`. <b>Well tried.</b>"
WRITTEN_AGAIN = {  # what a grade set by hand may change, and must
    f"feedback/barbara/{LESSON2.assignment}/{LESSON2.notebook.replace('.ipynb', '.html')}",
    f"results/barbara/{LESSON2.assignment}.json",
    "grades.csv",
    "checks.csv",
    "cohort_report.html",
    "provenance.csv",
    "history.jsonl",  # the new score, and what made it, join the record of decisions
}


def stem(lesson):
    return lesson.notebook.rsplit(".", 1)[0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Grade; set barbara's grade and comment by hand through nbgrader's API; grade again; and once more."""
    from nbgrader.api import Gradebook

    root = tmp_path_factory.mktemp("manual")
    out, handed_in, log = root / "out", root / "handed_in", io.StringIO()
    course = prepared_course(out, log)
    demo.build(handed_in, out / "release", course.due_dates(), cohort=COHORT)
    seen = SimpleNamespace(out=out)
    seen.first = batch.run(out, submissions=handed_in, stream=log, workers=1)
    with Gradebook(course.db_url) as gradebook:
        grade = gradebook.find_grade(GRADE_CELL, stem(LESSON2), LESSON2.assignment, "barbara")
        seen.auto = grade.auto_score
        grade.manual_score = seen.auto + 10
        gradebook.find_comment(COMMENT_CELL, stem(LESSON2), LESSON2.assignment, "barbara").manual_comment = COMMENT
        gradebook.db.commit()
        seen.total = gradebook.find_submission(LESSON2.assignment, "barbara").score
    seen.files1 = snapshot(out)  # the gradebook as the grader left it
    seen.second = batch.run(out, submissions=handed_in, stream=log, workers=1)
    seen.files2 = snapshot(out)
    seen.third = batch.run(out, submissions=handed_in, stream=log, workers=1)
    seen.files3 = snapshot(out)
    return seen


def page_text(out, student, lesson):
    page = (out / "feedback" / student / lesson.assignment / lesson.notebook.replace(".ipynb", ".html")).read_text(
        encoding="utf-8"
    )
    return page, html.unescape(re.sub(r"<[^>]+>", "", page))


def grades_csv(out):
    return {(r["student_id"], r["assignment"]): r for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}


def results(out, student, lesson):
    return json.loads((out / "results" / student / f"{lesson.assignment}.json").read_text(encoding="utf-8"))


def test_a_grade_set_by_hand_rewrites_exactly_what_shows_it(runs):
    """Nothing is autograded again; barbara's page, results and the exports are written again, nothing else."""
    assert runs.second.regraded == [] and runs.second.refreshed == [f"barbara/{LESSON2.assignment}"]
    changed = {path for path in runs.files2 if runs.files2[path] != runs.files1.get(path)}
    changed -= {path for path in changed if path.startswith(("logs/", "cache/"))}
    assert changed == WRITTEN_AGAIN
    assert runs.files3 == runs.files2 and runs.third.regraded == runs.third.refreshed == []


def test_the_grade_and_the_comment_show_in_every_output(runs):
    """The feedback page, results/*.json, grades.csv, checks.csv and the cohort report all give the gradebook's
    score."""
    out, given = runs.out, runs.auto + 10
    page, text = page_text(out, "barbara", LESSON2)
    assert f"(Score: {runs.total:g} / " in text
    assert f"graded by hand: {given:g} (the hidden checks gave {runs.auto:g})" in text
    summary = re.search(r'<table[^>]*class="grade-summary".*?</table>', page, re.S).group(0)
    assert html.escape(COMMENT, quote=False) in summary  # the summary shows the grader's words as text
    assert "Add at a fan-out:" in text.split("Comments:")[-1]  # and the cell's footer as nbgrader does: as markdown
    said = results(out, "barbara", LESSON2)
    assert said["score"] == pytest.approx(runs.total) and said["autograded_score"] == pytest.approx(runs.total - 10)
    assert said["graded_by_hand"][GRADE_CELL]["score"] == given and said["comments"] == {COMMENT_CELL: COMMENT}
    assert (
        f"graded by hand: {GRADE_CELL} {given:g}/" in said["output"] and f"comment on {COMMENT_CELL}:" in said["output"]
    )
    assert float(grades_csv(out)["barbara", LESSON2.assignment]["score"]) == pytest.approx(runs.total)
    checks = {r["student_id"]: r for r in csv.DictReader((out / "checks.csv").open(encoding="utf-8"))}
    assert checks["barbara"]["graded_by_hand"].startswith(
        f"{LESSON2.assignment}/{GRADE_CELL}: {given:g} (hidden checks: "
    )
    assert checks["ken"]["graded_by_hand"] == ""
    report = html.unescape((out / "cohort_report.html").read_text(encoding="utf-8"))
    assert f"{LESSON2.assignment}/{GRADE_CELL}: {given:g} (hidden checks: {runs.auto:g})" in report
    assert f"{runs.total:g}/" in report and runs.second.entry("barbara", LESSON2.assignment).score == runs.total


def test_a_late_hand_in_has_one_score_everywhere(runs):
    """ken's lesson 1 after the late penalty: the same in results/*.json, grades.csv, the feedback page and the
    report."""
    out = runs.out
    entry = runs.third.entry("ken", LESSON1.assignment)
    assert entry.penalty > 0 and entry.late_seconds > 0
    said = results(out, "ken", LESSON1)
    row = grades_csv(out)["ken", LESSON1.assignment]
    assert said["score"] == pytest.approx(entry.score) == pytest.approx(float(row["score"]))
    assert said["autograded_score"] - said["late_penalty"] == pytest.approx(entry.score)
    assert "the late policy took" in said["output"]
    _page, text = page_text(out, "ken", LESSON1)
    assert f"(Score: {entry.score:g} / " in text and "Late submission penalty" in text
    report = (out / "cohort_report.html").read_text(encoding="utf-8")
    assert re.search(rf">{re.escape(f'{entry.score:g}')}/{LESSON1_MOST(runs):g}</a>", report)


def LESSON1_MOST(runs):  # reads as the constant it stands for
    return next(lesson.max_score for lesson in runs.third.lessons if lesson.assignment == LESSON1.assignment)


def test_untouched_notebooks_are_flagged_and_pages_stand_alone(runs):
    """margaret's untouched notebook is flagged; her page has no "No response." row, no script, and the lesson's
    picture."""
    from autograder.pipeline.cohort_report import remarks

    assert f"{LESSON1.assignment} untouched" in remarks(runs.third, "margaret")
    assert "untouched" not in remarks(runs.third, "ken")
    page, text = page_text(runs.out, "margaret", LESSON1)
    assert "No response." not in text and "<script" not in page.lower() and "Out[" not in text
    assert "data:image/png;base64," in page and "drawn with the reference's code" in text
