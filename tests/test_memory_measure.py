"""A call's peak memory, measured by the parent from outside the sandbox child (Sandbox.call(measure_memory=True)).

The measure runs in a fresh child and starts before the learner's code loads, so memory that load-time code
takes and frees (an allocator prepared to hold what the call keeps) is counted; where no memory cgroup holds
the child there is no measure, and the memory family is not graded rather than judged by a process's own peak.
"""

from pathlib import Path

import pytest

from autograder.course.paths import reference_source
from autograder.grading import report, runner, worked_out
from autograder.grading.measured import UNMEASURED
from autograder.grading.submission import Chunk, Submission
from autograder.sandbox import cgroups
from autograder.sandbox.limits import Limits
from autograder.sandbox.sandbox import Sandbox
from graphcourse import checks, zoo
from tests.conftest import ROOT

CODE = """
def hold(size):
    kept = bytearray(size)
    return len(kept)

def spike(size):
    for _ in range(3):
        block = bytearray(size)  # freed at once: only the peak sees it
        del block
    return 0

def nothing(size):
    return size
"""
# Load-time code that takes memory in small objects and frees every other one: the allocator keeps it all.
PREPARED = (
    """
_pool = [bytearray(40) for _ in range(300_000)]
del _pool[::2]
"""
    + CODE
)
MB = 1 << 20
MEMORY_CGROUP = bool(cgroups.v2_caps() or "memory" in cgroups.v1_bases())
needs_memory_cgroup = pytest.mark.skipif(not MEMORY_CGROUP, reason="no memory cgroup can be made here")
MEMORY_CHECKS = [c for c in checks.all_checks() if c.expect == "memory_bound"]
ALLOCATOR = ROOT / "tests" / "hostile_handins" / "prepared_allocator.py"


def measured(fn, size, sandbox):
    reply = sandbox.call(fn, [size], measure_memory=True)
    assert reply["status"] == "ok", reply
    return reply["memory_bytes"]


@needs_memory_cgroup
def test_a_call_that_holds_or_briefly_touches_memory_is_measured_and_one_that_does_not_is_not():
    with Sandbox([Chunk("m", CODE)]) as sandbox:
        assert measured("hold", 24 * MB, sandbox) >= 20 * MB
        assert measured("spike", 24 * MB, sandbox) >= 20 * MB
        assert measured("nothing", 24 * MB, sandbox) < 2 * MB


@needs_memory_cgroup
def test_each_measure_starts_in_a_fresh_child_and_needs_asking_for():
    with Sandbox([Chunk("m", CODE)]) as sandbox:
        measured("hold", 24 * MB, sandbox)
        assert measured("nothing", 0, sandbox) < 2 * MB  # the earlier call's peak is not this one's
        assert "memory_bytes" not in sandbox.call("nothing", [0])


@needs_memory_cgroup
def test_memory_the_code_took_and_freed_while_it_loaded_is_counted():
    """The pools filled at load hold what a call keeps afterwards; measured from before the load, they count."""
    with Sandbox([Chunk("m", PREPARED)]) as sandbox:
        assert measured("nothing", 0, sandbox) >= 8 * MB


def test_a_renewed_child_spends_none_of_the_restarts_a_crash_would():
    with Sandbox([Chunk("m", CODE)], Limits(restarts=1)) as sandbox:
        for _ in range(3):
            assert sandbox.call("nothing", [1])["value"] == 1
            sandbox.renew()
        assert sandbox.call("nothing", [2])["value"] == 2


def test_without_a_memory_cgroup_there_is_no_measure(no_memory_cgroup):
    """No VmHWM fallback: a process's own peak is reset and read after memory it freed could hide the call's."""
    with Sandbox([Chunk("m", CODE)]) as sandbox:
        reply = sandbox.call("hold", [MB], measure_memory=True)
    assert reply["status"] == "ok" and "memory_bytes" not in reply


def _memory_grade(source, name="handin"):
    return runner.grade(Submission(Path(name), [Chunk(name, source)]), MEMORY_CHECKS)


@pytest.fixture
def no_memory_cgroup(monkeypatch):
    """A machine where no memory cgroup holds a child: the reference's measure too is worked out afresh."""
    monkeypatch.setattr(cgroups.Group, "memory_mark", lambda self: None)
    monkeypatch.setattr(worked_out, "_REFERENCE_MEMORY", {})


def test_without_a_memory_cgroup_the_memory_family_is_not_graded_and_says_why(no_memory_cgroup):
    graded = _memory_grade(reference_source("memory"))
    assert graded.results and graded.score == 0 and graded.max_score == 0
    (result,) = graded.results
    assert not result.graded and result.failure.status == UNMEASURED and not result.misconception
    assert "not graded" in result.failure.summary and "cgroup" in result.failure.summary
    (test,) = report.results_json(graded)["tests"]
    assert test["max_score"] == 0 and test["score"] == 0 and "not graded" in test["output"]


def test_a_grade_cell_is_scaled_over_the_checks_that_were_graded(no_memory_cgroup):
    """The function's grade cell keeps its points: a right answer earns all of them from the checks graded."""
    from autograder.grading import cellgrades

    gradients = [c for c in checks.all_checks() if c.id == "checkpoint_gradients/chains"]
    graded = runner.grade(Submission(Path("m"), [Chunk("m", reference_source("memory"))]), gradients + MEMORY_CHECKS)
    cell = cellgrades._function_cell(graded.results, 5, [])
    assert cell["score"] == 5 and "not graded  checkpoint_memory/chain (0/0)" in cell["summary"]


def test_without_a_memory_cgroup_a_wrong_answer_still_fails_on_its_answer(no_memory_cgroup):
    source = zoo.source(zoo.entry("buggy_checkpoint_zeros"))
    (result,) = _memory_grade(source).results
    assert result.graded and result.score == 0 and result.failure.status != UNMEASURED


@needs_memory_cgroup
@pytest.mark.parametrize("name", ["prepared_allocator", "buggy_checkpoint_keeps_every_value"])
def test_a_kept_everything_answer_fails_the_memory_family_whatever_its_load_time_code_does(name):
    """tests/hostile_handins/prepared_allocator.py fills the small-object pools at load and frees half of each."""
    source = (
        reference_source("memory") + "\n\n" + ALLOCATOR.read_text(encoding="utf-8")
        if name == "prepared_allocator"
        else zoo.source(zoo.entry(name))
    )
    (result,) = _memory_grade(source, name).results
    assert result.score == 0 and result.failure.status == "memory", result.failure
    summary = result.failure.summary
    assert "numbers more than the reference" in summary and "The rule allows about" in summary
    assert summary.index("numbers") < summary.index("MiB")  # numbers first, MiB beside them


@needs_memory_cgroup
@pytest.mark.parametrize("name", ["correct_memory_tables", "correct_memory_boundaries"])
def test_right_answers_that_keep_only_what_the_rule_allows_pass(name):
    (result,) = _memory_grade(zoo.source(zoo.entry(name)), name).results
    assert result.passed, result.failure
