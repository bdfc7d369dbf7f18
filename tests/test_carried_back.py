"""The property bar's quick pass (judges._carried_back) agrees with the walk that names the first wrong entry.

judge_carried_back passes a long answer when every name gets what its place's rule gives, applying each rule
once per arriving gradient; only when that fails does it walk the names in sweep order to report the first
wrong one. Both must agree on every answer, right or wrong, so that the quick pass changes no verdict.
"""

import random

import pytest

from autograder.grading import worked_out
from autograder.grading.compare import close
from graphcourse import judges
from graphcourse.builders import build, places
from graphcourse.checks import all_checks, call
from graphcourse.drivers.backward import BACKWARD_SHORT
from graphcourse.judges import JUDGES
from solutions import graph as reference


def carried_cases():
    """(check, case) of every case judged by the learner's own short answer, the long ones included."""
    for check in all_checks():
        if check.strategy is None:
            for case in worked_out.inputs(check):
                if case.driver in BACKWARD_SHORT:
                    yield check, case


CASES = list(carried_cases())


def answers(case):
    """The reference's short and long answers for ``case``."""
    graph, values = build(BACKWARD_SHORT[case.driver])
    short = reference.backward(graph, values, output=graph[-1][0])
    return short, reference.backward([tuple(node) for node in case.args[0]], dict(case.args[1]), **case.kwargs)


def edits(got, seed):
    """Long answers near the right one: one entry off by a little or a lot, NaN, an int, -0.0, every entry doubled."""
    rng = random.Random(seed)
    names = sorted(got)
    for change in (lambda v: v + 1e-3, lambda v: v * (1 + 1e-12), lambda v: float("nan"), lambda v: v + 1.0):
        edited = dict(got)
        name = rng.choice(names)
        edited[name] = change(edited[name])
        yield edited
    yield {name: int(v) if float(v).is_integer() else v for name, v in got.items()}
    yield {name: -0.0 if v == 0 else v for name, v in got.items()}
    yield {name: 2 * v for name, v in got.items()}


def test_there_are_long_and_short_carried_back_cases():
    assert {len(case.args[0]) > 10_000 for _check, case in CASES} == {True, False}


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case.label for _check, case in CASES])
def test_the_quick_pass_agrees_with_the_walk(index):
    check, case = CASES[index]
    short, long = answers(case)
    graph, values = build(BACKWARD_SHORT[case.driver])
    rules = judges._rules(graph, short, judges.short_input(case.driver)[2])
    plan = judges.long_plan(case)
    small = "a short input"
    assert judges._carried_back(rules, long, plan) and judges.first_not_carried_back(case, long, rules, small) is None
    verdicts = set()
    for seed, edited in enumerate(edits(long, index)):
        quick = judges._carried_back(rules, edited, plan)
        walked = judges.first_not_carried_back(case, edited, rules, small)
        assert quick == (walked is None), (case.label, seed, walked and walked.summary)
        verdicts.add(quick)
        reply = {"status": "ok", "value": [short, edited], "args_after": [list(case.args[0]), dict(case.args[1])]}
        failure = JUDGES[case.expect or check.expect](check, case, reply)
        assert (failure is None) == quick or failure.status != "inconsistent", (case.label, seed)
    assert verdicts == {True, False}, case.label


def fixed_answers(case, number):
    """Short and long answers that give ``number`` to every name a block or a sum places, 0.5 to the others, 1.0 to the
    output."""
    graph, values = build(BACKWARD_SHORT[case.driver])
    made = []
    for g, v in ((graph, values), (case.args[0], case.args[1])):
        placed = places(g)
        answer = {name: number if name in placed else 0.5 for name in v}
        answer[g[-1][0]] = 1.0
        made.append(answer)
    return made


@pytest.mark.parametrize("number", [float("nan"), float("inf"), -float("inf"), 0.0, 1.0, -2.0])
def test_a_fixed_upstream_number_passes_no_property_family(number):
    for check, case in CASES:
        reply = {
            "status": "ok",
            "value": fixed_answers(case, number),
            "args_after": [list(case.args[0]), dict(case.args[1])],
        }
        failure = JUDGES[case.expect or check.expect](check, case, reply)
        assert failure is not None, (case.label, number)
        if number != number or abs(number) == float("inf"):
            assert failure.status == "not_a_number" and "finite" in failure.summary, failure.summary


def test_nan_in_an_answer_agrees_with_nothing():
    assert not close(float("nan"), float("nan")) and not close(float("nan"), 1.0) and not close(float("inf"), 1e308)
    graph, values = build({"shape": "chain_of_blocks", "count": 2})
    case = call("backward", graph, values, label="two blocks", output=graph[-1][0])
    right = reference.backward(graph, dict(values), output=graph[-1][0])
    check = next(c for c in all_checks() if c.expect == "exact")
    for judge in ("reference", "exact", "returns"):
        for name in right:
            reply = {"status": "ok", "value": {**right, name: float("nan")}}
            assert JUDGES[judge](check, case, reply) is not None, (judge, name)
        assert JUDGES[judge](check, case, {"status": "ok", "value": right}) is None, judge
