"""Shrinking a failing property example stops at a budget of calls and of seconds, counted from the search's first
failure: the smallest failure found by then is shown, and the check fails as it would have."""

import pytest

from autograder.grading import runner
from autograder.grading.submission import Chunk
from autograder.sandbox.sandbox import Sandbox
from graphcourse import zoo
from graphcourse.checks import all_checks

ENTRY = "buggy_sweep_by_name"  # the zoo's longest shrink: backward on larger random graphs
CHECK = "finite_difference_agreement/larger_graphs"


@pytest.fixture
def counted(monkeypatch):
    """Run the check on the entry; (the failure shown, calls the search made, calls up to its first failure)."""
    check = next(c for c in all_checks() if c.id == CHECK)
    calls, first = [], []
    real_call, real_search = runner.Runner.call, runner.Runner.search

    def search(self, check, judge):
        def noted(check, case, reply):
            failure = judge(check, case, reply)
            if failure and not first:
                first.append(len(calls))
            return failure

        calls.clear()
        return real_search(self, check, noted)

    monkeypatch.setattr(runner.Runner, "call", lambda self, case: calls.append(case) or real_call(self, case))
    monkeypatch.setattr(runner.Runner, "search", search)

    def run():
        calls.clear()
        first.clear()
        with Sandbox([Chunk(ENTRY, zoo.source(zoo.entry(ENTRY)))]) as sandbox:
            failure = runner.Runner(sandbox).run_property(check)
        return failure, len(calls), first[0]

    return run


def test_the_zoo_shrinks_within_the_budget(counted):
    failure, made, first = counted()
    assert failure is not None and made - first <= runner.SHRINK_CALLS


def test_shrinking_stops_after_its_calls(counted, monkeypatch):
    whole, _made, _first = counted()
    monkeypatch.setattr(runner, "SHRINK_CALLS", 5)
    failure, made, first = counted()
    assert made - first == 6  # five replies judged past the first failure; the call that brought a sixth is the last
    assert failure is not None and failure.summary != whole.summary  # a larger example than the fully shrunk one


def test_shrinking_stops_after_its_seconds(counted, monkeypatch):
    monkeypatch.setattr(runner, "SHRINK_SECONDS", 0.0)
    failure, made, first = counted()
    assert made - first == 1 and failure is not None  # the first failure found again is the one shown
