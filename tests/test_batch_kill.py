"""`make grade` survives SIGKILL: killed at any moment and run again, it leaves a consistent gradebook.

The small cohort of tests/test_batch.py is graded once without interruption into one
folder (the reference), and into another by a chain of runs, each killed at its own
moment (at a named stage, by the kill points tests/batch_killer.py wraps around the batch's
steps, or the whole process group once the first notebook is graded), then finished by a
plain run. The finished folder must hold what the reference holds: every hand-in once in
the gradebook with the same scores, whole feedback pages,
results JSON that parses, no temporary files, and no process of the killed runs left.
"""

import dataclasses
import html.parser
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from autograder.course.lessons import LESSONS
from graphcourse import demo
from tests.conftest import ROOT, prepared_course
from tests.test_batch import COHORT as BATCH_COHORT, gradebook_rows

pytestmark = pytest.mark.slow

# The batch test's learners, in the first two lessons: a kill lands the same in any lesson, and every
# assignment the cohort hands in costs each of the runs below nbgrader's steps for it.
COHORT = tuple(dataclasses.replace(learner, through=min(learner.through, 2)) for learner in BATCH_COHORT)
HANDINS = sorted(
    (learner.student_id, lesson.assignment)
    for learner in COHORT
    for lesson in LESSONS
    if lesson.assignment in learner.handed_in()
)
# The killed runs, in order, on the same folder: (what kills it, what it shows).
KILLS = (
    ("group", "the whole process group dies a moment into the hidden checks"),
    ("hidden_checks:1", "only the batch process dies, with its two workers busy grading"),
    ("after_hidden_checks:1", "the first hand-in's records cached, nothing handed to nbgrader yet"),
    ("in_autograde:2", "a submission in the gradebook whose grades nbgrader has not saved"),
    ("mid_autograde:2", "a submission nbgrader finished that the batch has not marked graded"),
    ("mid_feedback:2", "a feedback page written that the batch has not marked finished"),
)
GRADING_TIME = re.compile(r'<td class="n">(?:\d+ min )?[\d.]+ s</td>')  # a learner's grading seconds in the report
# The whole group is killed once the hidden checks' bar shows its first notebook graded: the pool's workers are then
# busy with the others (a fixed delay after the bar appeared once landed after the last, the hidden checks being fast).
FIRST_GRADED = re.compile(r"hidden checks\s*:[^\n\r]*\| 1/\d")


def leftovers(*folders):
    """Command lines of live processes that name one of folders (batch runs, pool workers, sandbox children)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                line = handle.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat", "rb") as handle:
                zombie = handle.read().rsplit(b")", 1)[1].split()[0] == b"Z"
        except OSError:
            continue
        if any(str(folder) in line for folder in folders) and not zombie:
            found.append(f"{entry}: {line[:200]}")
    return found


def wait_for_no_leftovers(*folders, seconds=5.0):
    deadline = time.monotonic() + seconds
    while (found := leftovers(*folders)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def start(out, handed_in, env, log, kill_at=None):
    """The batch on out, in a process group of its own, killed at ``kill_at`` ("stage:n") if given; stderr goes to
    log."""
    command = ["-m", "autograder.pipeline.batch"]
    if kill_at:
        stage, times = kill_at.split(":")
        command = [str(ROOT / "tests" / "batch_killer.py"), stage, times]
    with open(log, "w", encoding="utf-8") as handle:
        return subprocess.Popen(
            [sys.executable, *command, "--out", str(out), "--submissions", str(handed_in)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=handle,
            start_new_session=True,
        )


def kill_group_when(proc, log, marker, limit=120):
    """SIGKILL proc's whole process group as soon as its log shows ``marker`` (a pattern)."""
    deadline = time.monotonic() + limit
    while not marker.search(Path(log).read_text(encoding="utf-8")) and proc.poll() is None:
        assert time.monotonic() < deadline, "the batch never got to " + marker.pattern
        time.sleep(0.02)
    assert proc.poll() is None, "the batch finished before it could be killed at " + marker.pattern
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The reference, graded in one go; the crashed folder, killed at every point of KILLS, then finished."""
    root = tmp_path_factory.mktemp("kill")
    handed_in, reference, crashed = root / "handed_in", root / "reference", root / "crashed"
    course = prepared_course(reference)
    demo.build(handed_in, reference / "release", course.due_dates(), cohort=COHORT)
    shutil.copytree(reference, crashed)  # the course prepared: no kill needs to pay for it
    sandboxes = root / "sandboxes"  # TMPDIR of the killed runs: their sandbox children name this folder
    sandboxes.mkdir()
    seen = SimpleNamespace(reference=reference, crashed=crashed, killed=[], truncated=None)

    # The reference runs alongside the killed chain: most of the chain's steps use one core of two.
    plain = start(reference, handed_in, dict(os.environ, TMPDIR=str(root)), root / "reference.log")
    env = dict(os.environ, TMPDIR=str(sandboxes))
    for number, (how, _shows) in enumerate(KILLS):
        stderr = root / f"killed{number}.log"
        proc = start(crashed, handed_in, env, stderr, kill_at=None if how == "group" else how)
        if how == "group":
            kill_group_when(proc, stderr, FIRST_GRADED)
        code = proc.wait(timeout=300)
        seen.killed.append((how, code, wait_for_no_leftovers(crashed, sandboxes), stderr.read_text(encoding="utf-8")))
        if how.startswith("mid_feedback"):  # as a kill during the write would leave it: the newest unmarked page
            finished = json.loads((crashed / "cache" / "state.json").read_text(encoding="utf-8"))["feedback"]
            unmarked = [
                p
                for p in (crashed / "feedback").rglob("*.html")
                if "/".join(p.relative_to(crashed / "feedback").parts[:2]) not in finished
            ]
            page = max(unmarked, key=lambda p: p.stat().st_mtime_ns)
            page.write_bytes(page.read_bytes()[: page.stat().st_size // 2])
            seen.truncated = page
    final = start(crashed, handed_in, env, root / "final.log")
    seen.final_code = final.wait(timeout=300)
    seen.final_log = (root / "final.log").read_text(encoding="utf-8")
    seen.leftovers = wait_for_no_leftovers(crashed, sandboxes)
    seen.reference_code = plain.wait(timeout=300)
    seen.reference_log = (root / "reference.log").read_text(encoding="utf-8")
    return seen


def files(out):
    """Relative paths of every file under out except the logs."""
    paths = (p.relative_to(out) for p in out.rglob("*") if p.is_file())
    return sorted(p.as_posix() for p in paths if p.parts[0] != "logs")


def test_every_kill_landed(runs):
    """Each run of the chain was killed by SIGKILL, and left no process of its own (workers, sandbox children) alive."""
    for how, code, alive, stderr in runs.killed:
        assert code == -signal.SIGKILL, f"{how}: exit {code}\n{stderr[-2000:]}"
        assert not alive, f"{how}: left {alive}"


def test_rerun_finishes(runs):
    """The plain run after the kills exits 0, as does the uninterrupted one, and leaves no process behind."""
    assert runs.reference_code == 0, runs.reference_log[-3000:]
    assert runs.final_code == 0, runs.final_log[-3000:]
    assert not runs.leftovers, runs.leftovers


def test_gradebook_has_every_handin_exactly_once(runs):
    """Every hand-in is one submitted assignment with one submitted notebook, and every table matches the reference."""
    db = sqlite3.connect(runs.crashed / "gradebook.db")
    try:
        submitted = db.execute(
            "SELECT sa.student_id, a.name FROM submitted_assignment sa JOIN assignment a ON sa.assignment_id = a.id"
        ).fetchall()
        notebooks = db.execute(
            "SELECT sa.student_id, a.name, COUNT(*) FROM submitted_notebook sn "
            "JOIN submitted_assignment sa ON sn.assignment_id = sa.id "
            "JOIN assignment a ON sa.assignment_id = a.id GROUP BY 1, 2"
        ).fetchall()
        unscored = db.execute("SELECT COUNT(*) FROM grade WHERE auto_score IS NULL").fetchone()[0]
    finally:
        db.close()
    assert sorted(submitted) == HANDINS
    assert sorted(notebooks) == [(student, assignment, 1) for student, assignment in HANDINS]
    assert unscored == 0
    counts, grades = gradebook_rows(runs.crashed)
    reference_counts, reference_grades = gradebook_rows(runs.reference)
    assert counts == reference_counts, "no duplicate or missing rows in any table"
    assert len(grades) == len(set(g[:3] for g in grades)), "one grade per hand-in and grade cell"
    assert grades == reference_grades, "the scores of an uninterrupted run"


def test_feedback_pages_are_whole(runs):
    """Every feedback page parses and ends with </html>, the one cut in half is whole again, all match the reference."""
    pages = sorted((runs.crashed / "feedback").rglob("*.html"))
    assert len(pages) == len(HANDINS)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        parser = html.parser.HTMLParser()
        parser.feed(text)
        parser.close()
        assert text.rstrip().endswith("</html>"), page
        assert text == (runs.reference / page.relative_to(runs.crashed)).read_text(encoding="utf-8"), page
    assert runs.truncated in pages, "the page cut in half was one of them"


def test_outputs_match_an_uninterrupted_run(runs):
    """The same files as the reference, no temporary files, and results JSON, CSVs and report with the same content."""
    assert files(runs.crashed) == files(runs.reference)
    leftover = [f for f in files(runs.crashed) if re.search(r"\.(partial|tmp)$|-journal$", f)]
    assert not leftover, leftover
    for path in sorted((runs.crashed / "results").rglob("*.json")):
        got = json.loads(path.read_text(encoding="utf-8"))
        want = json.loads((runs.reference / path.relative_to(runs.crashed)).read_text(encoding="utf-8"))
        got.pop("execution_time"), want.pop("execution_time")  # how long grading took
        for found in (got, want):  # and when each grade was made
            found["extra_data"]["provenance"].pop("graded_at")
        assert got == want, path
    for path in sorted((runs.crashed / "autograded").rglob("*.ipynb")):
        json.loads(path.read_text(encoding="utf-8"))
    for name in ("grades.csv", "checks.csv", "cohort_report.html"):
        got, want = ((out / name).read_text(encoding="utf-8") for out in (runs.crashed, runs.reference))
        if name == "cohort_report.html":  # the grading time column: how long grading took, as execution_time above
            got, want = (GRADING_TIME.sub("", text) for text in (got, want))
        assert got == want, name
