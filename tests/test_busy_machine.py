"""The same grade on a busy machine: a wall-clock cap never decides a grade that the CPU-time bound passes.

Other processes spinning on every core slow learner code down without its doing anything more.
The sandbox's deadlines yield to the time a child waited for a CPU (autograder/sandbox/patience.py),
so part of the demo cohort (two learners, on the checks that load could sway: timed, memory-bounded,
deep graphs) graded on a CPU kept busy gets exactly the grades it gets on a quiet machine;
and a call starved of its CPU on purpose still answers, where a plain wall-clock deadline would
have cut it off.
"""

import contextlib
import json
import os
import subprocess
import sys
import time

import pytest

from autograder.course import active
from autograder.course.lessons import LESSONS, function_of
from autograder.grading.by_lesson import lesson_points
from autograder.grading.runner import grade
from autograder.grading.submission import Chunk, from_notebook_json
from autograder.sandbox import patience
from autograder.sandbox.limits import Limits
from autograder.sandbox.sandbox import Sandbox
from exercises.notebook import nbgrader_meta
from graphcourse import demo
from tests.conftest import prepared_course

pytestmark = pytest.mark.slow

SPIN = "while True:\n    pass\n"
BURN = """
import time


def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return seconds
"""
# ada hands in every lesson right, deep and timed checks included; john's recursive code overflows on deep graphs.
LEARNERS = ("ada", "john")


@contextlib.contextmanager
def spinning(count, cpus=None):
    """``count`` processes that do nothing but use a CPU (``cpus``: the ones they may run on), killed on the way out."""
    spinners = [
        subprocess.Popen(
            [sys.executable, "-c", SPIN],
            stdin=subprocess.DEVNULL,
            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
        )
        for _ in range(count)
    ]
    time.sleep(0.5)  # every one of them spinning before anything is measured against them
    try:
        yield spinners
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


@contextlib.contextmanager
def pinned(cpus):
    """This process (and every child it starts) on ``cpus`` only."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def starved_call(seconds_of_cpu, limits):
    """The reply to a call that needs ``seconds_of_cpu`` of CPU, made on one CPU that six spinning processes share."""
    with pinned({0}), spinning(6, {0}), Sandbox([Chunk("burn", BURN)], limits) as sandbox:
        return sandbox.call("burn", [seconds_of_cpu])


def test_a_call_starved_of_its_cpu_still_answers():
    """A call that needs half its time limit in CPU, run at a seventh of one CPU, answers instead of timing out."""
    reply = starved_call(0.6, Limits(call_seconds=1.2))
    assert reply["status"] == "ok", reply


def test_without_patience_the_wall_clock_would_have_decided(monkeypatch):
    """The same call under a plain wall-clock deadline times out: the test above is about the load, not luck."""
    monkeypatch.setattr(patience, "PATIENCE", 1.0)
    reply = starved_call(0.6, Limits(call_seconds=1.2))
    if reply["status"] == "ok" and reply["wall_seconds"] < 1.2:
        pytest.skip(
            "the spinners did not starve the call: the sandbox's cgroup got a CPU share of its own here "
            f"({reply['wall_seconds']:.2f} s for 0.6 s of CPU)"
        )
    assert reply["status"] == "timeout", reply


def test_a_call_past_its_cpu_time_is_stopped_there():
    """A call that may use 0.3 s of CPU and would use 5 is stopped soon after 0.3, not at its 10 s of wall clock."""
    with Sandbox([Chunk("burn", BURN)], Limits()) as sandbox:
        reply = sandbox.call("burn", [5.0], seconds=10.0, measure_cpu=True, cpu=0.3)
    assert reply["status"] == "timeout" and 0.3 < reply["cpu_seconds"] < 1.5 and reply["wall_seconds"] < 3.0, reply


def test_a_starved_call_within_its_cpu_time_still_answers():
    """Starved of its CPU, a call that needs less CPU time than it may use is stopped neither by that nor by the wall
    clock: its CPU time is read as it runs, and only what it used counts."""
    with pinned({0}), spinning(6, {0}), Sandbox([Chunk("burn", BURN)], Limits()) as sandbox:
        reply = sandbox.call("burn", [0.6], seconds=1.2, measure_cpu=True, cpu=1.0)
    assert reply["status"] == "ok" and reply["cpu_seconds"] < 1.0, reply


def test_a_hang_with_cpu_time_to_spare_ends_at_its_wall_clock():
    """A call that sleeps uses no CPU time: the wall clock ends it, and no CPU time is said to have stopped it."""
    source = "import time\n\n\ndef burn(seconds):\n    time.sleep(30)\n"
    with Sandbox([Chunk("sleep", source)], Limits()) as sandbox:
        reply = sandbox.call("burn", [0], seconds=1.0, measure_cpu=True, cpu=0.3)
    assert reply["status"] == "timeout" and "cpu_seconds" not in reply and reply["wall_seconds"] >= 1.0, reply


def test_a_hang_is_not_waited_for_longer():
    """A call that sleeps waits for no CPU: its deadline does not move, however busy the machine."""
    source = "import time\n\n\ndef burn(seconds):\n    time.sleep(30)\n"
    with pinned({0}), spinning(4, {0}), Sandbox([Chunk("sleep", source)], Limits(call_seconds=1.0)) as sandbox:
        reply = sandbox.call("burn", [0])
    assert reply["status"] == "timeout" and reply["wall_seconds"] < patience.PATIENCE * 1.0


@pytest.fixture(scope="module")
def handins(tmp_path_factory):
    root = tmp_path_factory.mktemp("busy")
    course = prepared_course(root / "out", pictures=False)
    cohort = tuple(learner for learner in demo.COHORT if learner.student_id in LEARNERS)
    demo.build(root / "handed_in", course.root / "release", course.due_dates(), cohort=cohort)
    return sorted((root / "handed_in").glob("*/*/*.ipynb"))


def at_risk(lesson):
    """The lesson's checks that load could sway: the timed ones, the memory-bounded ones and the deep graphs."""
    functions = {function_of(grade_id) for grade_id in lesson_points(lesson)} - {""}
    return [
        c
        for c in active.part("checks").all_checks()
        if c.function in functions and (c.expect in ("linear_time", "memory_bound") or "deep" in c.id)
    ]


def grades(paths):
    """{hand-in: {check id: points}} of each notebook's code on its lesson's checks at risk."""
    found = {}
    for path in paths:
        lesson = next(lesson for lesson in LESSONS if lesson.assignment == path.parent.name)
        points = lesson_points(lesson)
        nb = json.loads(path.read_text(encoding="utf-8"))
        submission = from_notebook_json(
            nb, path, lambda cell, points=points: nbgrader_meta(cell).get("grade_id") in points
        )
        graded = grade(submission, at_risk(lesson))
        found[f"{path.parent.parent.name}/{path.parent.name}"] = {r.check.id: r.score for r in graded.results}
    return found


def test_the_demo_cohort_grades_the_same_on_a_busy_cpu(handins):
    """ada's and john's hand-ins, every lesson they hand in, on the checks load could sway: the same points graded on
    one CPU that two spinning processes share as on a quiet machine (the other CPUs stay free for the rest of the
    test run)."""
    quiet = grades(handins)
    assert sum(len(checks) for checks in quiet.values()) >= 10, quiet
    with pinned({0}), spinning(2, {0}):
        busy = grades(handins)
    assert busy == quiet
