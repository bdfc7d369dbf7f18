"""The cohort batch (`make grade`): gradebook, CSVs, feedback, results JSON and report; reruns and regrades.

One small cohort is graded three times into a temporary folder: once from scratch,
once more with nothing changed, and once after one learner fixed an answer. The tests
read what each run left behind.
"""

import contextlib
import csv
import hashlib
import html
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from types import SimpleNamespace

import pytest

from autograder.course.lessons import LESSONS, grade_cells
from autograder.grading.by_lesson import cell_points
from autograder.pipeline import batch, outputs, terminal_table
from graphcourse import demo
from graphcourse.checks import all_checks
from tests.conftest import ROOT, prepared_course

pytestmark = pytest.mark.slow

LESSON1, LESSON2 = (lesson.assignment for lesson in LESSONS[:2])  # the demo cohort's first two lessons
NOTEBOOK1 = LESSONS[0].notebook
# ada hands in every lesson (the summary's full marks per lesson); the others, lesson 1 alone.
COHORT = (
    demo.Learner("ada", "everything right", through=demo.EVERY),
    demo.Learner(
        "alan",
        "KeyError instead of ValueError; ORDER wrong",
        code=("buggy_evaluate_keyerror",),
        answers={"ORDER": ["q", "p", "L"]},
        missing=(LESSON2,),
    ),
    demo.Learner("dennis", "cut off mid-save", broken=(LESSON1,), missing=(LESSON2,)),
    demo.Learner("linus", "right code, edited metadata", tampered=True, missing=(LESSON2,)),
)


def snapshot(out):
    """{relative path: content hash} of every file under out."""
    return {
        path.relative_to(out).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(out.rglob("*"))
        if path.is_file()
    }


def gradebook_rows(out):
    """Every table's row count, and every grade as (student, assignment, grade cell, score)."""
    db = sqlite3.connect(out / "gradebook.db")
    try:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        counts = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in tables}
        grades = db.execute(
            "SELECT sa.student_id, a.name, bc.name, g.auto_score FROM grade g "
            "JOIN submitted_notebook sn ON g.notebook_id = sn.id "
            "JOIN submitted_assignment sa ON sn.assignment_id = sa.id "
            "JOIN assignment a ON sa.assignment_id = a.id "
            "JOIN base_cell bc ON g.cell_id = bc.id ORDER BY 1, 2, 3"
        ).fetchall()
    finally:
        db.close()
    return counts, grades


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Grade the cohort, grade it again unchanged, then again after alan fixed his ORDER answer."""
    root = tmp_path_factory.mktemp("batch")
    out, handed_in = root / "out", root / "handed_in"
    log = io.StringIO()
    course = prepared_course(out, log)
    demo.build(handed_in, out / "release", course.due_dates(), cohort=COHORT)
    seen = SimpleNamespace(out=out, handed_in=handed_in, log=log)

    seen.first = batch.run(out, submissions=handed_in, stream=log)
    seen.files1, seen.rows1 = snapshot(out), gradebook_rows(out)
    seen.second = batch.run(out, submissions=handed_in, stream=log)
    seen.files2, seen.rows2 = snapshot(out), gradebook_rows(out)

    alan = handed_in / "alan" / LESSON1 / NOTEBOOK1
    alan.write_text(
        alan.read_text(encoding="utf-8").replace("ORDER = ['q', 'p', 'L']", "ORDER = ['p', 'q', 'L']"), encoding="utf-8"
    )
    seen.third = batch.run(out, submissions=handed_in, stream=log)
    seen.files3, seen.rows3 = snapshot(out), gradebook_rows(out)
    seen.autograde_log3 = (out / "logs" / "autograde.log").read_text(encoding="utf-8")
    return seen


def scores(rows):
    return {(student, assignment, cell): score for student, assignment, cell, score in rows[1]}


def feedback_text(out, student, assignment=LESSON1):
    path = out / "feedback" / student / assignment / NOTEBOOK1.replace(".ipynb", ".html")
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


def test_gradebook_holds_every_learner_and_grade_cell(runs):
    """Every hand-in has a score for every grade cell; a partial function cell, a broken and a tampered notebook score
    right."""
    got = scores(runs.rows1)
    points = {gid: cell_points(cell) for gid, cell in grade_cells().items()}
    graded1 = [gid for gid in points if (("ada", LESSON1, gid) in got)]
    assert len(graded1) == 8 and all(
        ("ada", LESSON2, gid) in got for gid in ("backward_correct", "answer_assign_instead_of_add")
    )
    assert all(score is not None for score in got.values())
    for student in ("ada", "linus"):
        assert all(got[(student, LESSON1, gid)] == points[gid] for gid in graded1), student
    assert got[("ada", LESSON2, "backward_correct")] == points["backward_correct"]
    lost = sum(c.points for c in all_checks() if c.id.startswith("wrong_order_valueerror/"))
    assert got[("alan", LESSON1, "evaluate_correct")] == points["evaluate_correct"] - lost
    assert got[("alan", LESSON1, "answer_order")] == 0
    assert all(got[("dennis", LESSON1, gid)] == 0 for gid in graded1)
    assert not any(student != "ada" and assignment == LESSON2 for student, assignment, _c in got)


def test_csv_exports(runs):
    """grades.csv has a row per learner and lesson; checks.csv a column per hidden check id and a row per learner."""
    with open(runs.out / "grades.csv", newline="") as handle:
        grades = list(csv.DictReader(handle))
    assert sorted((r["student_id"], r["assignment"]) for r in grades) == sorted(
        (learner.student_id, lesson.assignment) for learner in COHORT for lesson in LESSONS
    )
    assert {r["student_id"]: float(r["score"]) for r in grades if r["assignment"] == LESSON2}["alan"] == 0.0
    with open(runs.out / "checks.csv", newline="") as handle:
        table = list(csv.reader(handle))
    assert table[0][1 : 1 + len(all_checks())] == [c.id for c in all_checks()]
    assert [row[0] for row in table[1:]] == sorted(learner.student_id for learner in COHORT)


def test_results_json_per_learner(runs):
    """Each hand-in has a results.json in Gradescope's schema whose score is the gradebook's."""
    got = scores(runs.rows3)  # the files as the last run left them
    for learner in COHORT:
        for lesson in LESSONS:
            path = runs.out / "results" / learner.student_id / f"{lesson.assignment}.json"
            assert path.exists() == (lesson.assignment in learner.handed_in()), path
            if not path.exists():
                continue
            results = json.loads(path.read_text(encoding="utf-8"))
            assert {"score", "max_score", "tests", "output"} <= set(results)
            assert all({"name", "score", "max_score", "status", "output"} <= set(t) for t in results["tests"])
            total = sum(s for (st, a, _c), s in got.items() if st == learner.student_id and a == lesson.assignment)
            assert results["score"] == pytest.approx(total)
    dennis = json.loads((runs.out / "results" / "dennis" / f"{LESSON1}.json").read_text(encoding="utf-8"))
    assert "not valid notebook JSON" in dennis["output"] and "hand it in again" in dennis["output"]


def test_feedback_shows_teaching_messages_but_no_check_source(runs):
    """Feedback HTML carries the teaching messages and the broken notebook's fix, never check source or hidden tests."""
    alan = feedback_text(runs.out, "alan")
    assert "expected ValueError, but evaluate raised KeyError" in alan and "the rule:" in alan
    assert "likely misconception:" in alan
    dennis = feedback_text(runs.out, "dennis")
    assert "not valid notebook JSON" in dennis and "open it in JupyterLab, save it, and hand it in again" in dennis
    check_code = set()
    for path in (ROOT / "graphcourse" / "checks").glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if len(line) >= 12 and re.search(
                r"\b(Check|Case|call|backward_call|chain|st\.\w+)\(|^(import|from) |=", line
            ):
                check_code.add(line)
    pages = list((runs.out / "feedback").rglob("*.html"))
    assert len(pages) == len(list((runs.out / "submitted").glob("*/*/*.ipynb")))  # one page per hand-in
    for page in pages:
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))
        assert "Check(" not in text and "HIDDEN TESTS" not in text and "graphcourse/checks" not in text
        student, assignment = page.parent.parent.name, page.parent.name
        handed_in = "\n".join(
            "".join(cell["source"])
            for p in (runs.out / "submitted" / student / assignment).glob("*.ipynb")
            for cell in json.loads(p.read_text(encoding="utf-8"))["cells"]
        )
        leaked = [
            line for line in check_code if line in text and line not in handed_in
        ]  # the learner's own lines may recur
        assert not leaked, f"{page.name} shows check source: {leaked[:3]}"


def test_cohort_report_and_summary(runs):
    """The report page has the score distribution, every check's pass rate and the misconceptions; late and missing are
    listed."""
    page = (runs.out / "cohort_report.html").read_text(encoding="utf-8")
    for heading in ("Score distribution", "Pass rate of every hidden check", "Most common misconceptions"):
        assert heading in page
    assert all(c.id in page for c in all_checks())
    assert "KeyError" in page  # alan's misconception, named by the zoo
    said = "\n".join(outputs.missing_report(runs.first))
    assert f"missing: alan handed in nothing for {LESSON2}" in said
    assert f"unreadable: dennis/{LESSON1}" in said
    printed = outputs.after_table(runs.first)
    assert not [line for line in printed if line.startswith("missing: ")], "missing hand-ins are counted, not listed"
    assert any(line.endswith("not handed in (- in the table)") for line in printed)
    assert all(len(line) <= terminal_table.TERMINAL for line in printed), printed
    table = terminal_table.summary_table(runs.first)
    assert all(len(line) <= terminal_table.TERMINAL for line in table.splitlines()), table
    per_lesson = [
        sum(cell_points(c) for c in grade_cells().values() if c.assignment == lesson.assignment) for lesson in LESSONS
    ]
    full = r"\s+".join(f"{p:g}/{p:g}" for p in per_lesson)
    assert re.search(rf"^ada\s+{full}\s+{sum(per_lesson):g}/{sum(per_lesson):g}", table, re.M), table


def test_the_cohort_is_streamed_through_the_exports(runs):
    """batch.run returns every learner's row (scores, lateness, problems) but none of the records the exports read."""
    entries = [entry for learner in runs.first.learners.values() for entry in learner.values()]
    assert sorted(runs.first.learners) == sorted(learner.student_id for learner in COHORT)
    assert entries and not any(entry.checks or entry.answers or entry.results for entry in entries)
    assert any(entry.score for entry in entries) and any(entry.problem for entry in entries)


def test_rerun_changes_nothing(runs):
    """Grading the same hand-ins again leaves the gradebook and every file exactly as they were."""
    assert runs.rows2 == runs.rows1
    assert runs.files2 == runs.files1


def test_changed_submission_is_regraded(runs):
    """A learner who fixes an answer is graded again, alone; nothing else in the gradebook or the files changes."""
    before, after = scores(runs.rows1), scores(runs.rows3)
    changed = {key for key in before if before[key] != after[key]}
    assert changed == {("alan", LESSON1, "answer_order")} and after[("alan", LESSON1, "answer_order")] == 1
    assert runs.rows3[0] == runs.rows1[0], "no duplicate rows"
    autograded = re.findall(r"\] Autograding \S*autograded/(\w+)/", runs.autograde_log3)
    assert set(autograded) == {"alan"}
    touched = {path for path in runs.files3 if runs.files3[path] != runs.files1.get(path)}
    assert {
        f"feedback/ada/{LESSON1}/{NOTEBOOK1.replace('.ipynb', '.html')}",
        "results/ada/lesson1_graphs.json",
    }.isdisjoint(touched)
    assert f"results/alan/{LESSON1}.json" in touched and "grades.csv" in touched


def test_a_hand_in_nbgrader_cannot_autograde_is_graded_as_unreadable(tmp_path, monkeypatch):
    """nbgrader fails on one hand-in: the batch goes on, grades it as an unreadable notebook with a message, and
    every hand-in, that one included, ends with feedback and a row, with feedback written alongside autograde."""
    from autograder.nbgrader.course_folder import Course

    out, handed_in = tmp_path / "out", tmp_path / "handed_in"
    course = prepared_course(out)
    cohort = (demo.Learner("ada", "everything right"), demo.Learner("alan", "everything right too"))
    demo.build(handed_in, out / "release", course.due_dates(), cohort=cohort)
    call, failed = Course.call, []

    def failing_once(self, step, *args, **kwargs):
        if step == "autograde" and args == (LESSON2, "alan") and not failed:
            failed.append(args)
            return {"success": False, "error": "nbgrader stopped on this notebook"}
        return call(self, step, *args, **kwargs)

    monkeypatch.setattr(Course, "call", failing_once)
    log = io.StringIO()
    graded = batch.run(out, submissions=handed_in, stream=log, workers=2)
    assert failed and "grading them as unreadable notebooks" in log.getvalue()
    state = json.loads((out / "cache" / "state.json").read_text(encoding="utf-8"))
    handins = {f"{learner.student_id}/{assignment}" for learner in cohort for assignment in learner.handed_in()}
    assert set(state["graded"]) == set(state["feedback"]) == handins
    assert all(state["feedback"][h] == state["graded"][h] for h in handins)
    for handin in handins:
        assert list((out / "feedback" / handin).glob("*.html")), handin
    rows = {(r["student_id"], r["assignment"]): r for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}
    assert float(rows["alan", LESSON2]["raw_score"]) == 0.0 < float(rows["ada", LESSON2]["raw_score"])
    assert float(rows["alan", LESSON1]["raw_score"]) == float(rows["ada", LESSON1]["raw_score"]) > 0
    assert graded.entry("alan", LESSON2).status == "unreadable"


# ---------------------------------------------------------------- nothing to do costs nothing


@pytest.fixture(scope="module")
def unchanged_run(runs):
    """After the runs above, one complete run through the batch's command line in this process keeps what it printed
    (autograder/pipeline/unchanged.py); then make grade's command runs in a fresh process with nothing changed."""
    args = ["--out", str(runs.out), "--submissions", str(runs.handed_in), "--workers", "1"]
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert batch.main(args) == 0
    before = stamped(runs.out)
    again = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "autograder.pipeline.grade", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    return SimpleNamespace(printed=printed.getvalue(), again=again, before=before, after=stamped(runs.out))


def stamped(out):
    """{relative path: (content hash, modification time)} of every file under out, its cache and logs included."""
    return {path: (digest, (out / path).stat().st_mtime_ns) for path, digest in snapshot(out).items()}


def test_a_run_with_nothing_to_do_imports_no_nbgrader_and_writes_nothing(unchanged_run, runs):
    from autograder.pipeline import grade, unchanged

    again = unchanged_run.again
    assert again.returncode == 0, again.stderr[-2000:]
    imported = {line.rsplit("|", 1)[1].strip() for line in again.stderr.splitlines() if line.startswith("import time:")}
    assert "autograder.pipeline.unchanged" in imported
    assert not {m for m in imported if m.split(".")[0] in ("nbgrader", "nbformat", "nbconvert", "jupyter_server")}
    assert unchanged_run.after == unchanged_run.before, "the run with nothing to do wrote a file"
    table = unchanged_run.printed.rsplit("\n\n", 1)[0]
    assert again.stdout.rsplit("\n\n", 1)[0] == table and "alan" in table
    assert again.stdout.rstrip().splitlines()[-1].startswith(f"{grade.NOTHING};")
    assert (runs.out / "cache" / unchanged.NAME).is_file()


def test_a_changed_hand_in_or_output_is_seen(unchanged_run, runs):
    """The answer is kept only for the same hand-ins' content and an OUT as the last complete run left it."""
    from autograder.pipeline import unchanged

    out, handed_in = runs.out, runs.handed_in
    digest = unchanged.inputs(handed_in)
    assert unchanged.answer(out, digest) is not None
    assert unchanged.answer(out, unchanged.inputs(handed_in, db_url="sqlite:///elsewhere.db")) is None
    notebook = handed_in / "alan" / LESSON1 / NOTEBOOK1
    text = notebook.read_text(encoding="utf-8")
    notebook.write_text(text + " ", encoding="utf-8")
    try:
        assert unchanged.inputs(handed_in) != digest
    finally:
        notebook.write_text(text, encoding="utf-8")
    assert unchanged.inputs(handed_in) == digest
    grades = out / "grades.csv"
    kept, stat = grades.read_bytes(), grades.stat()
    grades.write_bytes(kept + b"\n")
    try:
        assert unchanged.answer(out, digest) is None
    finally:
        grades.write_bytes(kept)
        os.utime(grades, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert unchanged.answer(out, digest) is not None


def test_a_batch_works_out_ahead_only_the_checks_its_hand_ins_are_graded_on(runs):
    """pregrading warms the checks of the functions the lessons to grade hold, no other lesson's."""
    from autograder.course.lessons import function_of
    from autograder.nbgrader.course_folder import Course
    from autograder.pipeline.pregrading import checks_graded

    cells = Course(runs.out, io.StringIO()).grade_cells()
    first = {function_of(grade_id) for grade_id in cells[LESSON1][0]} - {""}
    assert first and {c.function for c in checks_graded(cells, {LESSON1})} == first
    both = checks_graded(cells, {LESSON1, LESSON2})
    assert {c.id for c in checks_graded(cells, {LESSON1})} < {c.id for c in both} < {c.id for c in all_checks()}
    assert checks_graded(cells, set()) == []
