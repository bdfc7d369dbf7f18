"""Hostile hand-ins, the instructor's side: what learners can do to the grading of others, and to the pages people read.

* an LMS download (make collect): a learner who uploads an archive holding a notebook
  named as another learner's hand-in must not replace that hand-in; resubmissions, a
  ``.gz`` that is no tar and a bomb must not stop the batch; unpacking is capped;
* markup in a learner's notebook (script tags, event handlers, javascript: links, in
  markdown, raw cells, outputs or metadata) must not reach the feedback pages, the
  formgrader's pages or the cohort report as live markup;
* a learner folder whose name is not a safe student id (a newline, ``*``, ``?``, a
  comma, ``=``) is reported and left out, and never touches another learner; every CSV
  is quoted and neutralised against formulas;
* a learner folder always gives rows in grades.csv: a renamed lesson notebook is graded
  with a note, a symbolic link or a stray file scores 0 with the problem named.

The hostile instances are in tests/hostile_handins/ (markup cells, a 2 KB download that
unpacks to more than 2 GB) and in the builders below (folder names, downloads).
"""

import csv
import datetime
import functools
import gzip
import html
import io
import json
import os
import re
import shutil
import time
import zipfile
from html.parser import HTMLParser
from types import SimpleNamespace

import nbformat
import pytest
from markupsafe import escape

from autograder.course.lessons import LESSONS
from autograder.course.paths import NOTEBOOKS
from autograder.nbgrader.course_folder import BatchError, Course
from autograder.nbgrader.sanitize.markdown import render_markdown, safe_markdown
from autograder.nbgrader.sanitize.notebook import sanitize_notebook
from autograder.pipeline import batch, cohort_report, collect, outputs
from autograder.pipeline.names import SHOWN_NAMES, show
from graphcourse import demo
from tests.conftest import ROOT, prepared_course

DATA = ROOT / "tests" / "hostile_handins"
LESSON1, LESSON2 = LESSONS[:2]
PAGE1 = LESSON1.notebook.replace(".ipynb", ".html")
BAD_FOLDERS = ("ev\nil", "a*", "a?a", "x,y", "=HYPERLINK(1)", ".hidden")


# ---------------------------------------------------------------- reading pages as a browser would run them


class PageScan(HTMLParser):
    """Every script element, event-handler attribute and javascript: address of a page."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.scripts, self.handlers, self.javascript = [], [], []
        self._script = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"<{tag} {name}={value!r}>")
            address = re.sub(r"[\x00-\x20\x7f]+", "", value or "").lower()
            if address.startswith(("javascript:", "vbscript:", "data:text/html")):
                self.javascript.append(f"<{tag} {name}={value!r}>")
        if tag == "script":
            self._script = [tuple(sorted(attrs)), ""]
            self.scripts.append(self._script)

    def handle_data(self, data):
        if self._script is not None:
            self._script[1] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def script_set(self):
        return sorted((attrs, body.strip()) for attrs, body in self.scripts)


# The same, read from the raw text, so that no parser's reading of comments or foreign content hides one:
# a learner's markup that is shown as text has its "<" escaped, so none of these can match it.
RAW_SCRIPT = re.compile(r"<script", re.I)
RAW_HANDLER = re.compile(r"<[a-z][^<>]*?[\s/\"']on[a-z]+\s*=", re.I)
RAW_JAVASCRIPT = re.compile(r"<[a-z][^<>]*?=\s*[\"']?\s*javascript:", re.I)


def assert_inert(text, template, where):
    """The page runs nothing but what its template brings: the scripts and handlers of ``template``, a page of a benign
    notebook."""
    scan = PageScan(text)
    assert sorted(scan.handlers) == sorted(template.handlers), f"{where}: event handlers {scan.handlers[:5]}"
    assert scan.javascript == template.javascript == [], f"{where}: javascript: addresses {scan.javascript[:3]}"
    assert scan.script_set() == template.script_set(), f"{where}: scripts {scan.script_set()}"
    assert len(RAW_SCRIPT.findall(text)) == len(template.scripts), f"{where}: {RAW_SCRIPT.findall(text)}"
    assert len(RAW_HANDLER.findall(text)) == len(template.handlers), f"{where}: {RAW_HANDLER.findall(text)}"
    assert not RAW_JAVASCRIPT.search(text), f"{where}: {RAW_JAVASCRIPT.search(text)}"


NO_TEMPLATE = PageScan("")


@functools.cache
def exporter(template):
    """One nbconvert HTML exporter per template, made once: each page is rendered afresh by it."""
    from nbconvert.exporters import HTMLExporter

    if template == "classic":
        return HTMLExporter(template_name="classic")
    from nbgrader.server_extensions.formgrader import handlers

    return HTMLExporter(template_name="formgrade", extra_template_basedirs=[handlers.template_path])


def classic_page(nb):
    return exporter("classic").from_notebook_node(nbformat.from_dict(nb))[0]


def formgrader_page(path, student):
    """The page nbgrader's formgrader shows for an autograded notebook (its SubmissionHandler)."""
    resources = {
        "assignment_id": LESSON1.assignment,
        "notebook_id": LESSON1.notebook[:-6],
        "submission_id": "1",
        "index": 0,
        "total": 1,
        "base_url": "",
        "student": student,
        "last_name": "",
        "first_name": "",
        "notebook_path": "",
    }
    return exporter("formgrade").from_filename(str(path), resources=resources)[0]


# ---------------------------------------------------------------- building hand-ins


def markup_payload():
    return json.loads((DATA / "markup_cells.json").read_text(encoding="utf-8"))


def with_markup(text):
    """A lesson notebook with the hostile markup cells and widget state added."""
    nb = json.loads(text)
    payload = markup_payload()
    nb["cells"] += payload["cells"]
    nb["metadata"].update(payload["notebook_metadata"])
    return json.dumps(nb, indent=1)


def unrelated_notebook():
    return json.dumps(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {},
            "cells": [
                {
                    "cell_type": "code",
                    "id": "c1",
                    "metadata": {},
                    "execution_count": None,
                    "outputs": [],
                    "source": "print('my own notes')",
                }
            ],
        }
    )


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def notebooks(tmp_path_factory):
    """A course folder prepared once, and the first two lessons' notebooks: right everywhere (ada) and the untouched
    release (stub)."""
    root = tmp_path_factory.mktemp("hostile")
    course = prepared_course(root / "course")
    built = root / "built"
    demo.build(
        built,
        course.root / "release",
        course.due_dates(),
        cohort=(demo.Learner("ada", "right"), demo.Learner("stub", "release notebooks", stub=True)),
    )
    return SimpleNamespace(
        root=root,
        course=course.root,
        built=built,
        right={
            lesson.assignment: (built / "ada" / lesson.assignment / lesson.notebook).read_text(encoding="utf-8")
            for lesson in LESSONS[:2]
        },
        stub={
            lesson.assignment: (built / "stub" / lesson.assignment / lesson.notebook).read_text(encoding="utf-8")
            for lesson in LESSONS[:2]
        },
    )


def fresh_out(notebooks, name):
    out = notebooks.root / name
    shutil.copytree(notebooks.course, out)  # the course as prepared, without paying generate_assignment again
    return out


# ---------------------------------------------------------------- a submissions folder with hostile names and files


@pytest.fixture(scope="module")
def folder_run(notebooks):
    """Grade a folder of hand-ins holding hostile folder names, renamed notebooks, links and markup."""
    handed_in = notebooks.root / "handed_in"
    right, stub = notebooks.right[LESSON1.assignment], notebooks.stub[LESSON1.assignment]
    shutil.copytree(notebooks.built / "ada", handed_in / "ada")
    for name in BAD_FOLDERS:
        write(handed_in / name / LESSON1.assignment / LESSON1.notebook, stub)
    write(handed_in / "carol" / LESSON1.assignment / f"Copy of {LESSON1.notebook}", right)
    (handed_in / "dave" / LESSON1.assignment).mkdir(parents=True)
    (handed_in / "dave" / LESSON1.assignment / LESSON1.notebook).symlink_to(
        handed_in / "ada" / LESSON1.assignment / LESSON1.notebook
    )
    write(handed_in / "erin" / LESSON1.assignment / "notes.ipynb", unrelated_notebook())
    write(handed_in / "frank" / LESSON1.notebook, right)
    (handed_in / "gwen").mkdir()
    (handed_in / "gwen" / LESSON1.assignment).symlink_to(handed_in / "ada" / LESSON1.assignment)
    write(handed_in / "mal" / LESSON1.assignment / LESSON1.notebook, with_markup(right))

    out = fresh_out(notebooks, "folder_out")
    log = io.StringIO()
    cohort = batch.run(out, submissions=handed_in, stream=log)
    return SimpleNamespace(
        out=out,
        cohort=cohort,
        said="\n".join(cohort.notes + outputs.missing_report(cohort)),
        grades=list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8")))),
        checks={
            r["student_id"]: r for r in csv.DictReader(io.StringIO((out / "checks.csv").read_text(encoding="utf-8")))
        },
        report=(out / "cohort_report.html").read_text(encoding="utf-8"),
    )


GOOD_LEARNERS = {"ada", "carol", "dave", "erin", "frank", "gwen", "mal"}


@pytest.mark.slow
def test_unsafe_folder_names_are_reported_and_touch_no_one(folder_run):
    """Newline, glob characters, comma, '=' and a leading dot: each folder is named in a note with the fix; ada keeps
    her grades."""
    said = folder_run.said
    for name in BAD_FOLDERS:
        shown = show(name)
        assert f"{shown}: not a safe student id" in said and "rename it to the learner's id" in said, name
    assert set(folder_run.cohort.learners) == GOOD_LEARNERS
    assert {row["student_id"] for row in folder_run.grades} == GOOD_LEARNERS
    full = {lesson.assignment: lesson.max_score for lesson in folder_run.cohort.lessons}
    assert all(
        folder_run.cohort.entry("ada", lesson.assignment).score == full[lesson.assignment] for lesson in LESSONS[:2]
    )  # no stub in her place
    assert not any(p.name != p.name.strip() or "*" in p.name for p in (folder_run.out / "autograded").iterdir())
    assert sorted(p.name for p in (folder_run.out / "submitted").iterdir()) == sorted(GOOD_LEARNERS)


@pytest.mark.slow
def test_every_learner_folder_gives_rows_and_named_problems(folder_run):
    """A renamed copy is graded with a note; a linked file, a linked folder, a stray notebook or file score 0 with the
    problem."""
    cohort, grades = folder_run.cohort, folder_run.grades
    full = {lesson.assignment: lesson.max_score for lesson in cohort.lessons}
    assert sorted((r["student_id"], r["assignment"]) for r in grades) == sorted(
        (student, lesson.assignment) for student in GOOD_LEARNERS for lesson in cohort.lessons
    )  # the lessons handed in
    carol = cohort.entry("carol", LESSON1.assignment)
    assert carol.status == "graded" and carol.score == full[LESSON1.assignment]
    assert f"carol/{LESSON1.assignment}/Copy of {LESSON1.notebook}: graded as {LESSON1.notebook}" in folder_run.said
    assert cohort.entry("carol", LESSON2.assignment).status == "missing"  # no folder for it: not handed in
    expected = {
        ("dave", LESSON1.assignment): "symbolic link",
        ("gwen", LESSON1.assignment): "symbolic link",
        ("erin", LESSON1.assignment): "notes.ipynb (not this lesson's notebook",
        ("frank", LESSON1.assignment): f"frank/ holds only {LESSON1.notebook}",
        ("frank", LESSON2.assignment): f"frank/ holds only {LESSON1.notebook}",
    }
    for (student, assignment), words in expected.items():
        entry = cohort.entry(student, assignment)
        assert entry.score == 0 and entry.status == "unreadable", (student, assignment)
        assert words in entry.problem and "hand in the lesson notebook" in entry.problem, entry.problem
        assert words in folder_run.checks[student]["problems"], student
        assert str(escape(entry.problem)) in folder_run.report, student  # as the report's template escapes it
        assert f"unreadable: {student}/{assignment}: {entry.problem}" in folder_run.said
    assert (
        f"frank/{LESSON1.notebook}: not inside <student_id>/<assignment_id>/; "
        f"skipped: move it to frank/{LESSON1.assignment}/"
    ) in folder_run.said
    assert folder_run.checks["ada"]["problems"] == ""
    feedback = (folder_run.out / "feedback" / "dave" / LESSON1.assignment / PAGE1).read_text(encoding="utf-8")
    assert "symbolic link" in html.unescape(feedback)


@pytest.mark.slow
def test_csv_files_quote_every_field(folder_run):
    """grades.csv and checks.csv quote every field, so a comma or a newline can never shift a column."""
    for name in ("grades.csv", "checks.csv"):
        lines = (folder_run.out / name).read_text(encoding="utf-8").splitlines()
        assert all(line.startswith('"') and line.endswith('"') for line in lines), name


@pytest.mark.slow
def test_markup_is_inert_on_every_page(folder_run):
    """No script, event handler or javascript: address of a learner reaches a feedback page, a formgrader page or the
    report."""
    out = folder_run.out
    ada_page = (out / "feedback" / "ada" / LESSON1.assignment / PAGE1).read_text(encoding="utf-8")
    template = PageScan(ada_page)
    assert not template.scripts  # the kit's page loads no script at all (not even nbgrader's MathJax)
    pages = sorted((out / "feedback").rglob("*.html"))
    assert len(pages) == len([p for p in (out / "autograded").rglob("*.ipynb")])
    for page in pages:
        assert_inert(page.read_text(encoding="utf-8"), template, page.relative_to(out))
    assert_inert(folder_run.report, NO_TEMPLATE, "cohort_report.html")

    ada_path = out / "autograded" / "ada" / LESSON1.assignment / LESSON1.notebook
    ada_form = formgrader_page(ada_path, "ada")
    ada_scan = PageScan(ada_form)
    for notebook in sorted((out / "autograded").rglob("*.ipynb")):
        page = ada_form if notebook == ada_path else formgrader_page(notebook, "ada")  # ada's is drawn once
        assert_inert(page, ada_scan, notebook.relative_to(out))

    mal = (out / "feedback" / "mal" / LESSON1.assignment / PAGE1).read_text(encoding="utf-8")
    shown = html.unescape(re.sub(r"<[^>]+>", "", mal))
    for marker in ("md-script", "md-link", "md-reference", "raw"):
        assert marker in shown, marker  # what the learner wrote is shown, as text
    assert (
        folder_run.cohort.entry("mal", LESSON1.assignment).score
        == folder_run.cohort.entry("ada", LESSON1.assignment).score
    )


# ---------------------------------------------------------------- an LMS download


def entry(bundle, name, data, when):
    bundle.writestr(zipfile.ZipInfo(name, date_time=when), data)


def nested_zip(files):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as inner:
        for name, text in files.items():
            entry(inner, name, text, (2025, 3, 14, 8, 0, 0))
    return buffer.getvalue()


@pytest.fixture(scope="module")
def download_run(notebooks):
    """Grade a Canvas download holding a forged hand-in in an archive, resubmissions, a .gz, bad logins and a renamed
    notebook."""
    right, stub = notebooks.right[LESSON1.assignment], notebooks.stub[LESSON1.assignment]
    stem = LESSON1.notebook[: -len(".ipynb")]
    zip_path = notebooks.root / "submissions.zip"
    out = fresh_out(notebooks, "download_out")
    # The times below are written as they were against lesson 1's due date of 2025-03-14 23:59 UTC; the course's
    # dates move with the day it is graded (notebooks/nbgrader_config.py), so each is moved by as much.
    shift = Course(out).due_dates()[LESSON1.assignment] - datetime.datetime(2025, 3, 14, 23, 59)

    def moved(when):
        return (datetime.datetime(*when) + shift).timetuple()[:6]

    with zipfile.ZipFile(zip_path, "w") as bundle:
        entry(bundle, f"ada_1001_2001_{LESSON1.notebook}", right, moved((2025, 3, 13, 10, 0, 0)))
        entry(bundle, f"grace_1002_2002_{LESSON1.notebook}", stub, moved((2025, 3, 13, 9, 0, 0)))
        entry(bundle, f"grace_1002_2002_{stem}-1.ipynb", right, moved((2025, 3, 14, 9, 0, 0)))
        entry(
            bundle,
            "mallory_1003_2003_graphs.zip",
            nested_zip(
                {
                    f"ada_1001_2001_{LESSON1.notebook}": stub,  # handed in as ada: zip_collect believes the name
                    f"grace_1002_2002_{LESSON1.notebook}": stub,  # collides with grace's own
                    f"hopper_1009_2009_{LESSON1.notebook}": right,  # a learner who handed in nothing
                }
            ),
            moved((2025, 3, 14, 8, 0, 0)),
        )
        entry(bundle, f"ken_1004_2004_{stem}.gz", gzip.compress(right.encode(), mtime=0), moved((2025, 3, 14, 7, 0, 0)))
        entry(bundle, f"ev\nil_1006_2006_{LESSON1.notebook}", stub, moved((2025, 3, 14, 7, 0, 0)))
        entry(bundle, f"a*_1007_2007_{LESSON1.notebook}", stub, moved((2025, 3, 14, 7, 0, 0)))
        entry(bundle, f"barbara_LATE_1008_2008_Copy of {LESSON1.notebook}", right, moved((2025, 3, 15, 11, 59, 0)))
        entry(bundle, f"submissions/ada_1001_2001_{LESSON1.notebook}", stub, moved((2025, 3, 14, 7, 0, 0)))
    cohort = batch.run(out, zip_file=zip_path, stream=io.StringIO())
    return SimpleNamespace(
        out=out,
        cohort=cohort,
        said="\n".join(cohort.notes + outputs.missing_report(cohort)),
        report=(out / "cohort_report.html").read_text(encoding="utf-8"),
        checks=(out / "checks.csv").read_text(encoding="utf-8"),
    )


@pytest.mark.slow
def test_an_archive_cannot_hand_in_for_another_learner(download_run):
    """mallory's zip holds notebooks named as ada's and hopper's hand-ins: ada keeps her own, hopper hands in nothing,
    mallory gets 0."""
    cohort = download_run.cohort
    most = cohort.lessons[0].max_score
    assert cohort.entry("ada", LESSON1.assignment).score == most
    mallory = cohort.entry("mallory", LESSON1.assignment)
    assert mallory.score == 0 and "mallory_1003_2003_graphs.zip is an archive" in mallory.problem
    assert "archives are not unpacked" in mallory.problem and "mallory_1003_2003_graphs.zip" in download_run.checks
    ken = cohort.entry("ken", LESSON1.assignment)
    assert ken.score == 0 and f"ken_1004_2004_{LESSON1.notebook[:-6]}.gz is an archive" in ken.problem
    assert sorted(cohort.learners) == ["ada", "barbara", "grace", "ken", "mallory"]
    collected = download_run.out / "collected" / "submitted"
    assert sorted(p.relative_to(collected).as_posix() for p in collected.rglob("*") if p.is_file()) == sorted(
        [collect.PROBLEMS]
        + [
            f"{s}/{LESSON1.assignment}/{name}"
            for s, name in [
                ("ada", LESSON1.notebook),
                ("ada", "timestamp.txt"),
                ("grace", LESSON1.notebook),
                ("grace", "timestamp.txt"),
                ("barbara", f"Copy of {LESSON1.notebook}"),
                ("barbara", "timestamp.txt"),
            ]
        ]
    )
    ada_time = datetime.datetime(
        *zipfile.ZipFile(download_run.out.parent / "submissions.zip")
        .getinfo(f"ada_1001_2001_{LESSON1.notebook}")
        .date_time
    )
    assert (
        collected / "ada" / LESSON1.assignment / "timestamp.txt"
    ).read_text() == f"{ada_time:%Y-%m-%d %H:%M:%S} UTC\n"


@pytest.mark.slow
def test_resubmissions_keep_the_latest_and_list_the_others(download_run):
    """grace handed in twice: the later upload (-1) is graded, the earlier one is listed; barbara's renamed copy is
    graded, late."""
    cohort, said = download_run.cohort, download_run.said
    most = cohort.lessons[0].max_score
    assert cohort.entry("grace", LESSON1.assignment).score == most
    assert (
        f"grace/{LESSON1.assignment}: grace_1002_2002_{LESSON1.notebook} in the download: an earlier hand-in of "
        f"{LESSON1.notebook}; the latest, grace_1002_2002_{LESSON1.notebook[:-6]}-1.ipynb, is the one graded"
    ) in said
    barbara = cohort.entry("barbara", LESSON1.assignment)
    assert barbara.late_seconds > 0 and barbara.penalty == pytest.approx(0.1 * most)  # the course's late policy
    assert barbara.score + barbara.penalty == most
    assert f"barbara/{LESSON1.assignment}/Copy of {LESSON1.notebook}: graded as {LESSON1.notebook}" in said


@pytest.mark.slow
def test_download_problems_are_lines_of_the_report(download_run):
    """Bad logins and an entry inside a folder of the download are each a line naming the entry, printed and in the
    report."""
    said, report = download_run.said, html.unescape(download_run.report)
    lines = [
        f"submissions.zip: {show(f'ev{chr(10)}il_1006_2006_{LESSON1.notebook}')}: "
        "the login 'ev\\nil' is not a safe student id",
        f"submissions.zip: a*_1007_2007_{LESSON1.notebook}: the login a* is not a safe student id",
        f"submissions.zip: submissions/ada_1001_2001_{LESSON1.notebook}: inside a folder of the download",
    ]
    for line in lines:
        assert line in said, line
        assert line in report, line
    problem = f"{LESSON1.notebook}: not handed in: in the LMS download, mallory_1003_2003_graphs.zip is an archive"
    assert f"unreadable: mallory/{LESSON1.assignment}: {problem}" in said and problem in report


def test_a_bomb_is_refused_without_unpacking(tmp_path):
    """A 2 KB download unpacking to more than 2 GB: its entry is refused by its stated size, its nested archive never
    opened."""
    bomb = DATA / "bomb_download.zip"
    assert bomb.stat().st_size < 12_000
    started = time.monotonic()
    got = collect.collect(bomb, tmp_path / "submitted", LESSON1.assignment)
    assert time.monotonic() - started < 10
    written = [p.name for p in (tmp_path / "submitted").rglob("*") if p.is_file()]
    assert written == [collect.PROBLEMS] and (tmp_path / "submitted" / collect.PROBLEMS).stat().st_size < 2000
    assert "more than the cap of 100 MB a file" in got.problems[("eve", LESSON1.assignment)]
    assert "mallory_1003_2003_graphs.zip is an archive" in got.problems[("mallory", LESSON1.assignment)]
    assert ("ada", LESSON1.assignment) not in got.problems


def test_the_total_unpacked_is_capped(tmp_path, monkeypatch):
    """Past the cap on the whole download, the largest hand-ins are the ones refused, each with a message; the small
    ones are unpacked."""
    monkeypatch.setattr(collect, "MAX_TOTAL_BYTES", 5000)
    path = tmp_path / "download.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        for login, size in (("big", 4000), ("small", 100), ("middle", 2000)):
            entry(bundle, f"{login}_1_2_{LESSON1.notebook}", "x" * size, (2025, 3, 14, 7, 0, 0))
    got = collect.collect(path, tmp_path / "submitted", LESSON1.assignment)
    assert sorted(p.parent.parent.name for p in (tmp_path / "submitted").rglob("*.ipynb")) == ["middle", "small"]
    assert "more than the cap of 0.005 MB or 5000 files in all" in got.problems[("big", LESSON1.assignment)]


def test_downloads_of_each_lesson_add_up(tmp_path):
    """Collecting lesson 2 keeps what lesson 1's download brought, problems included; collecting lesson 1 again replaces
    only its own."""
    dest = tmp_path / "submitted"
    problems = []
    for number, (lesson, logins) in enumerate(((LESSON1, ("ada", "grace")), (LESSON2, ("ada",)), (LESSON1, ("ada",)))):
        path = tmp_path / f"download{number}.zip"
        with zipfile.ZipFile(path, "w") as bundle:
            for login in logins:
                entry(bundle, f"{login}_1_2_{lesson.notebook}", "{}", (2025, 3, 14, 7, 0, 0))
            if number == 0:
                entry(bundle, "mallory_1_2_work.zip", "PK", (2025, 3, 14, 7, 0, 0))
        problems.append(set(collect.collect(path, dest, lesson.assignment).problems))
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.ipynb")) == [
        f"ada/{LESSON1.assignment}/{LESSON1.notebook}",
        f"ada/{LESSON2.assignment}/{LESSON2.notebook}",
    ]
    assert problems == [{("mallory", LESSON1.assignment)}, {("mallory", LESSON1.assignment)}, set()]


def test_names_of_the_download(tmp_path):
    """Only the LMS's own top-level names make learners; paths, unsafe logins and names of other LMSs do not."""

    def parsed(name):
        return collect.parse(zipfile.ZipInfo(name), 0)

    upload = parsed(f"ada_LATE_1_2_{LESSON1.notebook[:-6]}-3.ipynb")
    assert (upload.student, upload.name, upload.copy) == ("ada", LESSON1.notebook, 3)
    for name in (
        "../../etc/ada_1_2_x.ipynb",
        "/ada_1_2_x.ipynb",
        "a\\ada_1_2_x.ipynb",
        "notes.ipynb",
        "ada_x_2_x.ipynb",
        "ev\nil_1_2_x.ipynb",
        "a?_1_2_x.ipynb",
        ".x_1_2_x.ipynb",
        "=1+1_1_2_x.ipynb",
    ):
        assert isinstance(parsed(name), str), name
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(NOTEBOOKS)).load_config()
    pattern = re.compile(config.FileNameCollectorPlugin.named_regexp)
    for name in (f"ada_1_2_{LESSON1.notebook}", f"ada_LATE_11_22_{LESSON1.notebook[:-6]}-1.ipynb"):
        match = pattern.match("/downloaded/" + name)
        assert match["student_id"] == parsed(name).student and match["file_id"] + ".ipynb" == parsed(name).name


def test_which_lesson_a_download_holds(tmp_path):
    """A learner who hands in another lesson's notebook does not make a download ambiguous; a tie asks for
    ASSIGNMENT."""
    path = tmp_path / "download.zip"
    with zipfile.ZipFile(path, "w") as bundle:
        for login in ("ada", "grace"):
            entry(bundle, f"{login}_1_2_{LESSON1.notebook}", "{}", (2025, 3, 14, 7, 0, 0))
        entry(bundle, f"mallory_1_2_{LESSON2.notebook}", "{}", (2025, 3, 14, 7, 0, 0))
    assert collect.collect(path, tmp_path / "a").assignment == LESSON1.assignment
    with zipfile.ZipFile(path, "a") as bundle:
        entry(bundle, f"ken_1_2_{LESSON2.notebook}", "{}", (2025, 3, 14, 7, 0, 0))
    with pytest.raises(BatchError, match="ASSIGNMENT="):
        collect.collect(path, tmp_path / "b")
    with pytest.raises(BatchError, match="no file named as the LMS names hand-ins"):
        empty = tmp_path / "empty.zip"
        with zipfile.ZipFile(empty, "w") as bundle:
            entry(bundle, "readme.txt", "hello", (2025, 3, 14, 7, 0, 0))
        collect.collect(empty, tmp_path / "c")


# ---------------------------------------------------------------- markup, cell by cell


@pytest.mark.slow
def test_every_hostile_cell_renders_inert():
    """Each hostile cell, sanitized, renders (nbconvert's classic template, the base of feedback and formgrader) with no
    live markup."""
    payload = markup_payload()
    empty = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}
    template = PageScan(classic_page(empty))
    for index, cell in enumerate(payload["cells"]):
        nb = {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": json.loads(json.dumps(payload["notebook_metadata"])),
            "cells": [json.loads(json.dumps(cell))],
        }
        sanitize_notebook(nb)
        assert_inert(classic_page(nb), template, f"cell {index}")
        again = json.loads(json.dumps(nb))
        assert sanitize_notebook(again) == 0, f"cell {index}: sanitizing twice changes it again"


def test_checking_is_capped_and_stays_inert():
    """Markup too long to check is shown as plain text or removed, once: sanitizing again changes nothing."""
    long_markdown = "<b>bold</b> and <script>alert('long')</script>\n\n" * 2000
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": "markdown", "id": "m", "metadata": {}, "source": long_markdown},
            {
                "cell_type": "code",
                "id": "c",
                "metadata": {},
                "execution_count": None,
                "source": "",
                "outputs": [
                    {
                        "output_type": "display_data",
                        "metadata": {},
                        "data": {"text/html": "<b>x</b>" * 10_000, "text/plain": "x"},
                    }
                ],
            },
        ],
    }
    assert sanitize_notebook(nb) == 2
    assert nb["cells"][0]["source"].startswith("<pre>&lt;b&gt;bold")
    assert nb["cells"][1]["outputs"][0]["data"] == {"text/plain": "x"}
    assert sanitize_notebook(json.loads(json.dumps(nb))) == 0
    assert_inert(classic_page(nb), PageScan(classic_page({**nb, "cells": []})), "long cells")


def test_lesson_notebooks_are_left_alone():
    """The course's own notebooks, markdown, tables and math included, show as before but for their headings' ids and
    the cells' ids; plain markdown stays as written."""
    for lesson in LESSONS:
        nb = json.loads(lesson.notebook_path().read_text(encoding="utf-8"))
        before = json.loads(json.dumps(nb))
        sanitize_notebook(nb)
        assert [cell.get("id") for cell in nb["cells"]] == [f"cell-{n}" for n in range(len(nb["cells"]))]
        for old, new in zip(before["cells"], nb["cells"]):
            old_source = "".join(old["source"])
            if {**old, "id": new.get("id")} == new:  # the cell's id is the kit's: its position
                continue  # every code cell, and each markdown cell without a heading
            assert old["cell_type"] == "markdown" and re.search(r"^#+ ", old_source, re.M), old_source[:80]
            old_page = re.sub(
                r' id="[^"]*"|<a class="anchor-link" href="#[^"]*">&#182;</a>', "", render_markdown(old_source)
            )
            assert html.unescape(re.sub(r">\s+<", "><", old_page)) == html.unescape(
                re.sub(r">\s+<", "><", render_markdown(new["source"]))
            ), old_source[:80]
        assert sanitize_notebook(json.loads(json.dumps(nb))) == 0, lesson.notebook
    for text in (
        "A < B and `x<y`, a & b\n\n> quoted\n\n| a | b |\n|:-|-:|\n| 1 | 2 |",
        "line<br/>break",
        "$$\\frac{dL}{dx}$$ and [the docs](https://docs.python.org/3/)",
        "- [x] done\n- [ ] to do",
    ):
        assert safe_markdown(text) == (text, False), text
    assert "&lt;script&gt;" in render_markdown(safe_markdown("<script>alert(1)</script>")[0])


def test_csv_cells_are_neutralised():
    """A cell that a spreadsheet could take for a formula starts with a quote; every field is quoted."""
    text = cohort_report.csv_text(
        [
            ["student_id", "note"],
            ["ada", '=HYPERLINK("http://x")'],
            ["b", "+1"],
            ["c", "-2"],
            ["d", "@SUM(A1)"],
            ["e", "a,b\nc"],
        ]
    )
    rows = list(csv.reader(io.StringIO(text)))
    assert [r[1] for r in rows[1:]] == ['\'=HYPERLINK("http://x")', "'+1", "'-2", "'@SUM(A1)", "a,b\nc"]
    assert text.startswith('"student_id","note"\n')


@pytest.mark.slow
def test_grades_csv_quotes_and_neutralises_gradebook_names(folder_run):
    """Names in the gradebook (from an LMS roster) with formulas, commas and newlines stay in their cells, inert."""
    from nbgrader.api import Gradebook

    course = Course(folder_run.out, io.StringIO())
    with Gradebook(course.db_url) as gradebook:
        gradebook.update_or_create_student(
            "ada", last_name="=cmd|' /C calc'!A0", first_name="Lovelace, Ada\nB.", email="@evil"
        )
    try:
        course.export_grades()
        rows = list(csv.DictReader(io.StringIO((folder_run.out / "grades.csv").read_text(encoding="utf-8"))))
    finally:
        with Gradebook(course.db_url) as gradebook:
            gradebook.update_or_create_student("ada", last_name=None, first_name=None, email=None)
        course.export_grades()
    ada = [r for r in rows if r["student_id"] == "ada"]
    assert len(ada) == len(LESSONS) and len(rows) == len(GOOD_LEARNERS) * len(LESSONS)
    assert {(r["last_name"], r["first_name"], r["email"]) for r in ada} == {
        ("'=cmd|' /C calc'!A0", "Lovelace, Ada\nB.", "'@evil")
    }
    assert all(float(r["score"]) >= 0 for r in rows)


# ---------------------------------------------------------------- costs bounded before the work
# Each hostile hand-in is built in a temporary folder at test time, and the grader's own step that reads it
# runs in a fresh process, which reports its CPU time and its peak resident memory (VmHWM, a loose bound that
# includes the interpreter and the kit; not RUSAGE_SELF, whose peak a process keeps across exec from the test worker
# that forked it): under COST_MB, with a message for that learner alone.

COST_MB = 500
MEASURED = """
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
started = time.process_time()
said = {{}}
{body}
said["cpu_s"] = time.process_time() - started
status = Path("/proc/self/status").read_text()
said["peak_mb"] = int(status.split("VmHWM:")[1].split()[0]) / 1024 if "VmHWM:" in status else (
    resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
print(json.dumps(said))
"""


def measured(body, **values):
    """Run ``body`` (Python that fills the dict ``said``) in a fresh interpreter; ``said``, with its CPU time and peak
    memory."""
    import subprocess
    import sys

    script = MEASURED.format(root=str(ROOT), body=body.format(**{k: repr(str(v)) for k, v in values.items()}))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def with_cells(nb, cells):
    return {**nb, "cells": nb["cells"] + cells}


def test_json_is_costed_before_it_is_parsed():
    """Values counted and nesting paired on the text alone: the lessons pass; empty lists, deep nesting do not."""
    from autograder.grading.json_cost import BASE_VALUES, MAX_DEPTH, too_costly

    for lesson in LESSONS:
        assert too_costly(lesson.notebook_path().read_bytes()) == "", lesson.notebook
    assert too_costly(b'{"a": "[[[[{{{,,,,\\\\\\"]]]", "b": [1, 2, {"c": []}]}') == ""
    lists = b'{"cells": [], "x": [' + b"[]," * (2 * BASE_VALUES) + b"[]]}"
    assert "JSON values" in too_costly(lists)
    assert f"more than {MAX_DEPTH} deep" in too_costly(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    assert too_costly(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) == ""
    assert too_costly(b"[" * 1000) == ""  # not JSON: json.loads says so


@pytest.mark.slow
def test_a_20_mb_notebook_of_empty_lists_is_refused_cheaply(notebooks, tmp_path):
    """20 MB of empty JSON lists in a notebook's metadata: the mirror step refuses it, naming the file, in little
    memory."""
    nb = json.loads(notebooks.stub[LESSON1.assignment])
    text = json.dumps(nb)
    filler = b"[]," * ((20_000_000 - len(text)) // 3)
    data = text[:-1].encode() + b', "padding": [' + filler + b"[]]}"
    path = tmp_path / "lists.ipynb"
    path.write_bytes(data)
    said = measured(
        """
from autograder.course.lessons import LESSONS
from autograder.nbgrader.course_folder import Course
from autograder.pipeline import handins
data = Path({path}).read_bytes()
said["mb"] = len(data) / 1e6
said["mirrored"], said["problem"] = handins.prepared(Course(Path({out})), data, "mal/lists.ipynb", LESSONS[0])
said["mirrored"] = len(said["mirrored"])
""",
        path=path,
        out=fresh_out(notebooks, "lists_out"),
    )
    assert said["mb"] > 19 and said["peak_mb"] < COST_MB, said
    assert said["problem"].startswith("mal/lists.ipynb: not read: it holds about") and "JupyterLab" in said["problem"]


@pytest.mark.slow
def test_80000_files_make_a_short_message_and_few_notes(tmp_path):
    """80,000 empty files beside a missing lesson notebook: one short problem, five notes and a count, in little
    memory."""
    folder = tmp_path / "handed_in" / "mal" / LESSON1.assignment
    folder.mkdir(parents=True)
    for n in range(80_000):
        os.mknod(folder / f"f{n:05d}", 0o666)  # an empty file, as touch() leaves it, in one system call
    (tmp_path / "handed_in" / "mal" / "stray").mkdir()
    for n in range(20):
        (tmp_path / "handed_in" / "mal" / f"loose{n}.txt").touch()
    said = measured(
        """
from autograder.pipeline import folder_scan
found = folder_scan.scan(Path({source}))
said["problems"] = found.standins
said["notes"] = found.notes
""",
        source=tmp_path / "handed_in",
    )
    problem = said["problems"][f"mal/{LESSON1.assignment}/{LESSON1.notebook}"]
    assert len(problem) < 1_000 and "f00000, f00001, f00002, f00003, f00004 and 79,995 more" in problem, problem
    assert len(said["notes"]) == SHOWN_NAMES + 1 and "16 more entries skipped" in said["notes"][-1], said["notes"]
    assert said["peak_mb"] < COST_MB, said


@pytest.mark.slow
def test_4_8_mb_of_code_is_not_parsed_by_the_grader(tmp_path):
    """4.8 MB of code in 24 cells: the grader's own reading (stubs, parsable chunks) parses a bounded part, in little
    memory."""
    nb = json.loads(LESSON1.notebook_path().read_text(encoding="utf-8"))
    piece = "a = b + c * d - e\n" * 11_200
    path = tmp_path / "code.ipynb"
    path.write_text(
        json.dumps(
            with_cells(
                nb,
                [
                    {
                        "cell_type": "code",
                        "id": f"big{n}",
                        "metadata": {},
                        "execution_count": None,
                        "outputs": [],
                        "source": piece,
                    }
                    for n in range(24)
                ],
            )
        ),
        encoding="utf-8",
    )
    said = measured(
        """
from autograder.course.lessons import LESSONS
from autograder.grading import by_lesson, reading
from autograder.grading.submission import from_notebook_json
from exercises.loader import drop_unwritten_stubs
path = Path({path})
read = reading.screened(from_notebook_json(by_lesson._restored(reading.notebook_json(path), LESSONS[0]), path))
kept = drop_unwritten_stubs([(c.label, c.code) for c in read.chunks])
said["code_mb"] = sum(len(code) for _label, code in kept) / 1e6
""",
        path=path,
    )
    assert said["code_mb"] > 4.8 and said["peak_mb"] < COST_MB, said


def test_a_feedback_page_shows_capped_code():
    """Each code cell's source is cut at a line, with a note, and a page shows at most MAX_PAGE_CHARS of code."""
    from autograder.nbgrader.capped_code import MAX_CELL_CHARS, MAX_PAGE_CHARS, cap_code

    cells = [{"cell_type": "code", "source": "x = 1\n" * 10_000} for _ in range(30)] + [
        {"cell_type": "markdown", "source": "y" * 50_000},
        {"cell_type": "code", "source": "short = 1"},
    ]
    assert cap_code(cells) == 31
    code = [cell["source"] for cell in cells if cell["cell_type"] == "code"]
    assert all(len(text) <= MAX_CELL_CHARS + 200 for text in code)
    assert sum(len(text) for text in code) <= MAX_PAGE_CHARS + 200 * len(code)
    assert code[0].startswith("x = 1\n") and code[0].splitlines()[-1].startswith("# [40,002 more character(s)")
    assert cells[-2]["source"] == "y" * 50_000 and cap_code([{"cell_type": "code", "source": "x = 1\n" * 100}]) == 0
