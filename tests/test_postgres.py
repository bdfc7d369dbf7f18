"""A PostgreSQL gradebook (`make grade DB_URL=postgresql://...`): the same outputs as SQLite's, and graders at work
meanwhile.

A server of the test's own is started from Debian's PostgreSQL (tests/postgres_server.py), in a
temporary folder, and stopped at the end. The demo cohort is graded twice: into OUT/gradebook.db,
and into a database of that server. The PostgreSQL folder starts with the SQLite folder's graded
records (cache/records, cache/seconds), so the hidden checks are not run a second time; everything
that goes through the gradebook (nbgrader's autograde and feedback, the exports, results/) is done
again against PostgreSQL. grades.csv, checks.csv and results/*.json must be the same, apart from timings. The
SQLite run's scores must also be the snapshot's (tests/expected/demo_scores.json, tests/demo_snapshot.py): every
score the demo cohort has earned so far, kept through every change to the kit.

Then two graders, each a process of its own writing one change per commit as the formgrader does,
set grades and comments by hand while `make grade` autogrades the same hand-ins again: no grade
is lost, and after the next `make grade` every one shows in its feedback page and results file.

Runs under `make test-postgres` (marked postgres; `make test` leaves it out: it grades the demo
cohort twice); the check of a gradebook URL needs no server and runs in `make test`. Skips, saying why,
where no server can be started.
"""

import csv
import html
import io
import json
import re
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

from autograder.nbgrader.course_folder import Course
from autograder.pipeline import batch, roster
from tests import demo_snapshot, postgres_server
from tests.conftest import ROOT, prepared_course

pytestmark = pytest.mark.slow

GRADE = (
    "import sys; from autograder.pipeline import batch; batch.run(sys.argv[1], workers=2)"  # the folder's own gradebook
)
RECORDS = ("records", "seconds")  # under cache/: the hidden checks' graded records, by hash of the code


@pytest.fixture(scope="module")
def server():
    reason = postgres_server.unavailable()
    if reason:
        pytest.skip(reason)
    running = postgres_server.Server()
    yield running
    running.stop()


TIMINGS = ("execution_time", "graded_at")  # how long grading took, and when: the only fields two runs may differ in


def without_timings(value):
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if key not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def results_without_timings(out):
    return {
        path.relative_to(out).as_posix(): without_timings(json.loads(path.read_text(encoding="utf-8")))
        for path in sorted((out / "results").rglob("*.json"))
    }


@pytest.fixture(scope="module")
def sqlite_run(tmp_path_factory):
    """The demo cohort graded into SQLite, as `make grade` does."""
    root = tmp_path_factory.mktemp("postgres")
    seen = SimpleNamespace(sqlite=root / "sqlite", postgres=root / "postgres", log=io.StringIO())
    prepared_course(seen.sqlite, seen.log)
    batch.run(seen.sqlite, workers=2, stream=seen.log)
    return seen


@pytest.mark.postgres
def test_the_demo_cohort_earns_the_scores_it_always_has(sqlite_run):
    """Every score of grades.csv, checks.csv and results/*.json is the snapshot's: a change to the kit that moves
    one is either a bug or meant, and then `python -m tests.demo_snapshot OUT` writes the snapshot again."""
    expected = json.loads(demo_snapshot.EXPECTED.read_text(encoding="utf-8"))
    got = demo_snapshot.snapshot(sqlite_run.sqlite)
    for part in ("grades.csv", "checks.csv", "results"):
        assert got[part] == expected[part], f"{part} differs from tests/expected/demo_scores.json"


@pytest.fixture(scope="module")
def runs(server, sqlite_run):
    """The demo cohort graded into SQLite, then into PostgreSQL (the hidden checks' records carried over)."""
    seen = sqlite_run
    prepared_course(seen.postgres, seen.log)
    (seen.postgres / "gradebook.db").unlink()  # the prepared copy's SQLite gradebook: this folder has none of its own
    for name in RECORDS:
        shutil.copytree(seen.sqlite / "cache" / name, seen.postgres / "cache" / name, dirs_exist_ok=True)
    seen.url = server.create("course")
    try:  # what make grade DB_URL=... OUT=... runs
        batch.run(seen.postgres, workers=2, stream=seen.log, db_url=seen.url)
        seen.exit = 0
    except batch.BatchError as err:
        seen.log.write(f"error: {err}\n")
        seen.exit = 2
    return seen


@pytest.mark.postgres
def test_a_postgresql_gradebook_grades_the_demo_cohort_as_sqlite_does(runs):
    assert runs.exit == 0, runs.log.getvalue()[-3000:]
    for name in ("grades.csv", "checks.csv"):
        assert (runs.postgres / name).read_text(encoding="utf-8") == (runs.sqlite / name).read_text(encoding="utf-8"), (
            name
        )
    assert results_without_timings(runs.postgres) == results_without_timings(runs.sqlite)
    assert not (runs.postgres / "gradebook.db").exists(), "nothing was written to an SQLite file"
    assert f'c.CourseDirectory.db_url = "{runs.url}"' in (runs.postgres / "nbgrader_config.py").read_text(
        encoding="utf-8"
    )


@pytest.mark.postgres
def test_the_folder_remembers_its_gradebook_for_later_commands(runs, tmp_path):
    from nbgrader.api import Gradebook

    assert Course(runs.postgres).db_url == runs.url  # what the formgrader, roster and exports open
    assert Course(runs.postgres).has_gradebook()
    names = tmp_path / "roster.csv"
    names.write_text("id,first_name,last_name\nada,Ada,Lovelace\n", encoding="utf-8")
    assert roster.main([str(names), "--out", str(runs.postgres)]) == 0
    with Gradebook(runs.url) as gradebook:
        assert (gradebook.find_student("ada").first_name, gradebook.find_student("ada").last_name) == (
            "Ada",
            "Lovelace",
        )
    again = batch.run(runs.postgres, workers=2, stream=io.StringIO())  # no DB_URL: the folder's own
    assert again.regraded == [], "the same gradebook: nothing to grade again"
    assert not (runs.postgres / "gradebook.db").exists()


def test_the_gradebook_url_is_checked_before_anything_is_written(tmp_path):
    from autograder.nbgrader.course_folder import BatchError

    for url, says in (
        ("postgresql://grader:secret@db/course", "password"),
        ("mysql://db/course", "sqlite or postgresql"),
        ("not a url", "not a database URL"),
        ("sqlite:///relative.db", "absolute path"),
    ):
        with pytest.raises(BatchError, match=says):
            batch.run(tmp_path / "out", stream=io.StringIO(), db_url=url)
    assert not (tmp_path / "out").exists()


def marks_of(url, graders=2, per_grader=3):
    """Each grader's marks: a score and a comment on hand-ins of the gradebook, none shared between graders."""
    from nbgrader.api import Gradebook

    chosen = []
    with Gradebook(url) as gradebook:
        for assignment in gradebook.assignments:
            for submission in sorted(assignment.submissions, key=lambda s: s.student_id):
                notebook = submission.notebooks[0]
                grade = sorted(notebook.grades, key=lambda g: g.name)[0]
                comment = sorted(notebook.comments, key=lambda c: c.name)[0]
                chosen.append(
                    (submission.student_id, assignment.name, notebook.name, grade.name, grade.max_score, comment.name)
                )
    chosen = chosen[:: max(1, len(chosen) // (graders * per_grader))][: graders * per_grader]
    return [
        [
            [*mark[:4], round(mark[4] / 2, 2), mark[5], f"grader {g + 1} on {mark[0]} {mark[3]}: <i>see me</i>"]
            for mark in chosen[g::graders]
        ]
        for g in range(graders)
    ]


@pytest.fixture(scope="module")
def graders_at_work(runs, tmp_path_factory):
    """Two graders set marks while make grade autogrades those hand-ins again; then make grade runs once more."""
    folder = tmp_path_factory.mktemp("graders")
    seen = SimpleNamespace(marks=marks_of(runs.url), stop=folder / "stop")
    for student, assignment, *_rest in (mark for marks in seen.marks for mark in marks):
        shutil.rmtree(runs.postgres / "autograded" / student / assignment)  # make grade autogrades these again
    grade = subprocess.Popen(
        [sys.executable, "-c", GRADE, str(runs.postgres)],  # make grade OUT=..., in a process of its own
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    graders = []
    for number, marks in enumerate(seen.marks):
        path = folder / f"marks{number}.json"
        path.write_text(json.dumps(marks), encoding="utf-8")
        graders.append(
            subprocess.Popen(
                [sys.executable, "-m", "tests.manual_grader", runs.url, str(path), str(seen.stop)],
                cwd=ROOT,
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        )
    seen.grade_output, _ = grade.communicate(timeout=600)
    seen.grade_exit = grade.returncode
    seen.stop.touch()
    seen.graders = [(process.wait(timeout=120), *process.communicate()) for process in graders]
    seen.after = batch.run(runs.postgres, workers=2, stream=io.StringIO())
    return seen


@pytest.mark.postgres
def test_two_graders_and_make_grade_at_once_lose_nothing(runs, graders_at_work):
    from nbgrader.api import Gradebook

    seen = graders_at_work
    assert seen.grade_exit == 0, seen.grade_output[-3000:]
    for code, out, err in seen.graders:
        assert code == 0, err[-3000:]
        assert json.loads(out)["rounds"] >= 1
    with Gradebook(runs.url) as gradebook:
        for student, assignment, notebook, cell, score, comment_cell, comment in (m for ms in seen.marks for m in ms):
            assert gradebook.find_grade(cell, notebook, assignment, student).manual_score == score
            assert gradebook.find_comment(comment_cell, notebook, assignment, student).manual_comment == comment
            assert gradebook.find_grade(cell, notebook, assignment, student).auto_score is not None


@pytest.mark.postgres
def test_every_grade_set_meanwhile_shows_in_feedback_and_results(runs, graders_at_work):
    from nbgrader.api import Gradebook

    for student, assignment, notebook, cell, score, comment_cell, comment in (
        m for ms in graders_at_work.marks for m in ms
    ):
        page = (runs.postgres / "feedback" / student / assignment / f"{notebook}.html").read_text(encoding="utf-8")
        text = html.unescape(re.sub(r"<[^>]+>", "", page))
        assert html.escape(comment, quote=False) in page, (student, assignment)  # the summary's text, as today
        assert comment.split(":")[0] in text
        results = json.loads((runs.postgres / "results" / student / f"{assignment}.json").read_text(encoding="utf-8"))
        assert results["graded_by_hand"][cell]["score"] == score
        assert results["comments"][comment_cell] == comment

    def grades_csv(out):  # the names aside: the roster named ada in the PostgreSQL gradebook only
        return {
            (r["student_id"], r["assignment"]): {k: v for k, v in r.items() if not k.endswith("_name")}
            for r in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))
        }

    rows, before = grades_csv(runs.postgres), grades_csv(runs.sqlite)
    touched = {(m[0], m[1]) for ms in graders_at_work.marks for m in ms}
    assert {k: v for k, v in rows.items() if k not in touched} == {k: v for k, v in before.items() if k not in touched}
    with Gradebook(runs.url) as gradebook:
        for student, assignment in touched:
            assert float(rows[student, assignment]["raw_score"]) == gradebook.find_submission(assignment, student).score
