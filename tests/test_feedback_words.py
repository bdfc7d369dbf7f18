"""Feedback speaks the learner's terms: no driver or helper of the grader is named, a driven call reads as the learner
would write it, and a misconception is named only when the evidence tells it apart from the others (the zoo's own
messages are held to the same in tests/test_zoo.py, which grades the zoo once)."""

import inspect

from graphcourse import calls, checks, diagnose, drivers, judges, zoo

BUGGY = [e for e in zoo.entries() if e.kind == "buggy"]


def grader_names():
    """Every function the drivers' files define: the programs the grader runs, and their helpers."""
    names = set()
    for path in drivers.FILES:
        module = __import__(f"graphcourse.drivers.{path.stem}", fromlist=["_"])
        names |= {
            name
            for name, value in vars(module).items()
            if inspect.isfunction(value) and value.__module__ == module.__name__
        }
    return names


INTERNAL = grader_names()


def test_every_driver_reads_as_the_learners_own_call():
    assert set(drivers.all_drivers()) - set(calls.WRITTEN) <= {
        "backward_after_short_chain",
        "backward_after_short_tree",
    }


def test_no_fixed_case_is_described_by_a_driver_or_helper_name():
    """Every fixed case's input, as feedback shows it, names none of the grader's own programs (tape_run,
    order_graph, ...)."""
    assert {"tape_run", "order_graph", "symbolic_graph", "_tape_graph"} <= INTERNAL
    for check in checks.all_checks():
        if check.strategy is not None:
            continue
        for case in check.inputs():
            shown = "\n".join(judges.describe(case))
            named = {name for name in INTERNAL if name in shown}
            assert not named, (check.id, named, shown)


def test_a_program_reads_as_its_lines():
    case = checks.Case("Var", ("multiplied_numbers", {"x": 1.5}), label="2 * x, x * 2", driver="tape_run")
    assert judges.describe(case) == [
        "input: 2 * x, x * 2",
        "  call: tape = Tape(); x = tape.leaf('x', 1.5)",
        "        then multiplied_numbers(x), where: 2 * x; return x * 2",
    ]


def test_a_label_lists_the_candidates_it_cannot_tell_apart():
    one, two = BUGGY[:2]
    assert diagnose.named([one]) == one.description
    both = diagnose.named([one, two])
    assert both.startswith("The answer fits 2 misconceptions") and one.description in both and two.description in both
    assert diagnose.named(BUGGY[: diagnose.MOST_NAMED + 1]) == ""


def test_a_candidate_that_misses_an_input_the_learner_got_right_is_not_named():
    """relu with a slope of 1 everywhere and every gradient seeded with 1.0 give the same answer on relu(-2), the second
    input of local_slopes/relu; only the first gets relu(2), the first input, right, as the learner did: only it is
    named."""
    check = next(c for c in checks.all_checks() if c.id == "local_slopes/relu")
    case = check.inputs()[1]
    answer = zoo.namespace("buggy_relu_slope_one")["backward"](*judges.as_tuples(case.args), **case.kwargs)
    seeded = zoo.namespace("buggy_seed_every_gradient")["backward"](*judges.as_tuples(case.args), **case.kwargs)
    assert answer == seeded
    failure = judges.JUDGES["exact"](check, case, {"status": "ok", "value": answer})
    assert [e.name for e in diagnose.candidates(check, failure)] == ["buggy_relu_slope_one"]
    assert diagnose.misconception(check, failure) == zoo.entry("buggy_relu_slope_one").description


def test_shrinking_keeps_the_smallest_failure_that_tells_the_misconceptions_apart(monkeypatch):
    from autograder.grading import runner
    from autograder.grading.compare import Failure

    found = [Failure(None, "larger"), Failure(None, "smaller"), Failure(None, "smallest, all zeros")]
    monkeypatch.setattr(diagnose, "tells_apart", lambda check, failure: "zeros" not in failure.summary)
    assert runner.telling(None, found).summary == "smaller"
    monkeypatch.setattr(diagnose, "tells_apart", lambda check, failure: False)
    assert runner.telling(None, found).summary == "smallest, all zeros"
