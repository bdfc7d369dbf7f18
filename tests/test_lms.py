"""The LMS round trip: a Canvas download in (`make collect`), the gradebook back out (`make export-canvas`).

* durations read in days and hours;
* a download keeps each learner's Canvas user id and submission id (collected/lms_ids.json);
* the export is the CSV Canvas's gradebook import documents: the columns Student, ID, SIS User ID,
  SIS Login ID and Section, then one column per assignment headed "Name (assignment id)", keyed by
  the Canvas user ids the downloads carried; every field quoted, no cell a formula;
* an input grades only the lessons it holds;
* the demo cohort's downloads (`make demo-download`) collect into the demo's own hand-ins, its upload
  times and lateness included, so the collect recipe gives the demo cohort's grades; one slow test
  grades a small download through the whole batch.
"""

import csv
import datetime
import io
import json
import shutil
import zipfile

import pytest

from autograder.course.lessons import LESSONS
from autograder.grading.by_lesson import lesson_points
from autograder.pipeline import batch, canvas, collect, folder_scan, learner_ids, outputs, timestamps
from autograder.pipeline.cohort_report import csv_text
from graphcourse import demo
from tests.conftest import prepared_course

LESSON1, LESSON2 = LESSONS[:2]
A, NB = LESSON1.assignment, LESSON1.notebook
# Canvas's documented import columns, before the assignments' (its guide "How do I import grades in the Gradebook?")
CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


@pytest.mark.parametrize(
    "seconds, shown",
    [
        (0, "0 s"),
        (42, "42 s"),
        (60, "1 min"),
        (3 * 3600, "3 h"),
        (3 * 3600 + 20 * 60, "3 h 20 min"),
        (86_400, "1 d"),
        (2 * 86_400 + 3 * 3600 + 60, "2 d 3 h"),
        (15043 * 3600, "626 d 19 h"),
        (86_399, "1 d"),
    ],
)
def test_durations_read_in_days_and_hours(seconds, shown):
    assert timestamps.duration(seconds) == shown


def download(path, entries):
    """A zip named as Canvas names a download's entries: (name, text, date_time)."""
    with zipfile.ZipFile(path, "w") as bundle:
        for name, text, when in entries:
            bundle.writestr(zipfile.ZipInfo(name, date_time=when), text)
    return path


def test_a_download_keeps_each_learners_canvas_ids(tmp_path):
    """Each learner's Canvas user id and submission id are kept per assignment (of the upload graded: the latest
    resubmission), a learner with nothing gradable too; a later lesson's download adds its own; a damaged row is
    dropped alone."""
    dest = tmp_path / "collected" / "submitted"
    first = download(
        tmp_path / "one.zip",
        [
            (f"ada_1001_2001_{NB}", "{}", (2026, 3, 1, 7, 0, 0)),
            (f"ada_1001_2001_{NB[:-6]}-1.ipynb", "{}", (2026, 3, 1, 9, 0, 0)),
            (f"grace_LATE_1003_2003_{NB}", "{}", (2026, 3, 2, 8, 0, 0)),
            ("alan_1002_2002_answers.txt", "in my head", (2026, 3, 1, 8, 0, 0)),
        ],
    )
    collect.collect(first, dest, A)
    collect.collect(
        download(tmp_path / "two.zip", [(f"ada_1001_2011_{LESSON2.notebook}", "{}", (2026, 3, 9, 7, 0, 0))]),
        dest,
        LESSON2.assignment,
    )
    ids = learner_ids.lms_ids(dest.parent)
    assert ids == {
        A: {
            "ada": {"login": "ada", "user_id": "1001", "submission_id": "2001"},
            "alan": {"login": "alan", "user_id": "1002", "submission_id": "2002"},
            "grace": {"login": "grace", "user_id": "1003", "submission_id": "2003"},
        },
        LESSON2.assignment: {"ada": {"login": "ada", "user_id": "1001", "submission_id": "2011"}},
    }
    kept = json.loads((dest.parent / learner_ids.LMS_IDS).read_text(encoding="utf-8"))
    kept[A]["grace"]["user_id"] = "=HYPERLINK(1)"
    kept[A]["../x"] = kept[A]["ada"]
    kept["no_such_lesson"] = {}
    (dest.parent / learner_ids.LMS_IDS).write_text(json.dumps(kept), encoding="utf-8")
    assert set(learner_ids.lms_ids(dest.parent)) == {A, LESSON2.assignment}
    assert set(learner_ids.lms_ids(dest.parent)[A]) == {"ada", "alan"}


def test_the_export_has_canvas_import_columns_keyed_by_canvas_ids():
    """The header is Canvas's five columns, then one per collected lesson ("Name (assignment id)" when the course
    config gives the Canvas assignment id, the name alone otherwise); rows are keyed by Canvas user id (ID), in its
    order; a learner a download did not hold has an empty cell, so the import leaves Canvas's score alone."""
    ids = {
        A: {
            "ada": {"login": "ada", "user_id": "1001", "submission_id": "2001"},
            "ken": {"login": "ken", "user_id": "977", "submission_id": "2002"},
        },
        LESSON2.assignment: {"ada": {"login": "ada", "user_id": "1001", "submission_id": "2011"}},
    }
    scores = {
        "ada": {A: (55.0, 0.0, 0.0), LESSON2.assignment: (33.5, 0.0, 0.0)},
        "ken": {A: (49.5, 10800.0, 5.5)},
        "margaret": {A: (0.0, 0.0, 0.0)},
    }
    table = canvas.rows(scores, ids, {A: "123456"})
    assert table == [
        CANVAS_COLUMNS + [f"{A} (123456)", LESSON2.assignment],
        ["ken", "977", "", "", "", "49.5", ""],
        ["ada", "1001", "", "", "", "55", "33.5"],
    ]
    text = csv_text(table + [["=cmd|' /C calc'!A0", "1", "", "", "", "+1", ""]])
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0][:5] == CANVAS_COLUMNS and parsed[1:3] == table[1:]
    assert parsed[3][0] == "'=cmd|' /C calc'!A0" and parsed[3][5] == "'+1"  # shown as text, never a formula
    assert all(line.startswith('"') and line.endswith('"') for line in text.splitlines())  # every field quoted


def test_an_input_is_graded_on_the_lessons_it_holds(tmp_path):
    """folder_scan.held: the lessons some learner has a folder for (or a known problem names); a learner folder with no
    lesson folder gets a stand-in for those lessons only; an input with no lesson folder is held to every lesson."""
    source = tmp_path / "in"
    (source / "ada" / A).mkdir(parents=True)
    (source / "ada" / A / NB).write_text("{}", encoding="utf-8")
    (source / "grace").mkdir()
    assert folder_scan.held(source) == {A}
    assert folder_scan.held(source, {("alan", LESSON2.assignment): "not handed in"}) == {A, LESSON2.assignment}
    found = folder_scan.scan(source)
    assert set(found.standins) == {f"grace/{A}/{NB}"}
    empty = tmp_path / "empty"
    (empty / "grace").mkdir(parents=True)
    assert folder_scan.held(empty) == {lesson.assignment for lesson in LESSONS}
    assert {r.split("/")[1] for r in folder_scan.scan(empty).standins} == {lesson.assignment for lesson in LESSONS}


@pytest.fixture(scope="module")
def demo_course(tmp_path_factory):
    """A prepared course with the demo cohort built in it, and its lesson 1 download, as make demo-download writes
    it."""
    course = prepared_course(tmp_path_factory.mktemp("lms") / "out")
    dues = course.due_dates()
    source = course.root / "demo_submissions"
    demo.build(source, course.root / "release", dues)
    zip_path = course.root / canvas.DOWNLOADS / f"{A}.zip"
    names = canvas.write_download(source, A, dues[A], zip_path)
    return course, source, zip_path, names, dues


@pytest.mark.slow
def test_the_demo_download_collects_into_the_demos_own_hand_ins(demo_course, tmp_path):
    """Every learner who hands in lesson 1 is one entry, named as Canvas names it, LATE_ exactly for the late
    learners, dated with their upload time; collected, it gives back the demo's notebooks and the same instants in
    timestamp.txt, so the collect recipe grades the demo cohort as make grade does."""
    course, source, zip_path, names, dues = demo_course
    handing_in = [learner for learner in demo.COHORT if A in learner.handed_in()]
    assert len(names) == len(handing_in)
    for learner in handing_in:
        (name,) = [n for n in names if n.startswith(f"{learner.student_id}_")]
        assert name.endswith(f"_{NB}") and ("_LATE_" in name) == (A in learner.late), name
    dest = tmp_path / "collected" / "submitted"
    got = collect.collect(zip_path, dest)
    assert got.assignment == A and not got.problems
    for learner in handing_in:
        mine, theirs = dest / learner.student_id / A, source / learner.student_id / A
        assert (mine / NB).read_bytes() == (theirs / NB).read_bytes(), learner.student_id
        assert timestamps.canonical((mine / "timestamp.txt").read_bytes()) == timestamps.canonical(
            (theirs / "timestamp.txt").read_bytes()
        ), learner.student_id
    ken = timestamps.canonical((dest / "ken" / A / "timestamp.txt").read_bytes()).strip()
    late = datetime.datetime.strptime(ken, timestamps.FORMAT) - dues[A]
    assert late == demo.LATE
    user_ids = {row["user_id"] for row in learner_ids.lms_ids(dest.parent)[A].values()}
    assert len(user_ids) == len(handing_in)


@pytest.mark.slow
def test_the_demo_course_is_due_around_today(demo_course):
    """The demo course's due dates are relative to the day it is graded: lesson 1 was due at the end of yesterday
    (UTC), so the demo's upload times are days, not years, from today."""
    _course, _source, _zip, _names, dues = demo_course
    today = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    assert datetime.timedelta(0) < today - dues[A] <= datetime.timedelta(days=2)
    assert all(
        dues[b.assignment] - dues[a.assignment] == datetime.timedelta(weeks=2) for a, b in zip(LESSONS, LESSONS[1:])
    )


@pytest.mark.slow
def test_a_collected_download_is_graded_alone_and_exported_for_canvas(demo_course, tmp_path):
    """Three demo learners' lesson 1, downloaded and collected through the whole batch: grades.csv, the table and the
    totals hold lesson 1 alone (no "missing" lesson, no 0-filled rows), ken is late by 3 h and loses 10%, and the
    Canvas export gives each learner's score under the Canvas user id of the download."""
    course, source, _zip, _names, dues = demo_course
    few = tmp_path / "few"
    for student in ("ada", "ken", "margaret"):
        shutil.copytree(source / student / A, few / student / A)
    zip_path = tmp_path / "lesson1.zip"
    canvas.write_download(few, A, dues[A], zip_path)
    out = tmp_path / "out"
    shutil.copytree(course.root, out, ignore=shutil.ignore_patterns("demo_submissions", canvas.DOWNLOADS))
    cohort = batch.run(out, zip_file=zip_path, workers=1, stream=io.StringIO())
    most = sum(lesson_points(LESSON1).values())
    assert [lesson.assignment for lesson in cohort.lessons] == [A] and cohort.max_total == most
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    assert {row["assignment"] for row in rows} == {A} and len(rows) == 3
    score = {row["student_id"]: float(row["score"]) for row in rows}
    assert score == {"ada": most, "ken": round(most * 0.9, 4), "margaret": 0.0}
    lines = outputs.missing_report(cohort)
    assert not any(line.startswith("missing:") for line in lines), lines
    assert f"late: ken handed in {A} 3 h after the due date; the late policy took {most * 0.1:g} points" in lines
    _path, said = canvas.export(out, io.StringIO())
    exported = list(csv.reader(io.StringIO((out / canvas.EXPORT).read_text(encoding="utf-8"))))
    assert exported[0] == CANVAS_COLUMNS + [A] and any("new assignment" in line for line in said)
    by_id = {row[1]: (row[0], row[5]) for row in exported[1:]}
    ids = {student: row["user_id"] for student, row in learner_ids.lms_ids(out / "collected")[A].items()}
    assert by_id == {
        ids["ada"]: ("ada", f"{most:g}"),
        ids["ken"]: ("ken", f"{most * 0.9:g}"),
        ids["margaret"]: ("margaret", "0"),
    }
