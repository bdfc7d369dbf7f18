"""The hidden-check table itself: stable ids, points, rules (docs/checks.md's copy: tests/test_docs.py)."""

import re
from fractions import Fraction

from graphcourse import checks
from solutions import graph as reference
from tests.conftest import ROOT

ALL = checks.all_checks()


def test_check_ids_are_unique_and_stable_shaped():
    """Every id is 'family/variant' in snake_case, and no two checks share one."""
    ids = [c.id for c in ALL]
    assert len(ids) == len(set(ids))
    for check in ALL:
        assert re.fullmatch(r"[a-z_]+/[a-z_]+", check.id), check.id
        assert check.family in checks.FAMILIES


def test_points_per_function():
    """Every function the lessons grade has hidden checks, worth a whole number of points in all."""
    totals = {f: sum(c.points for c in ALL if c.function == f) for f in checks.FUNCTIONS}
    assert all(total > 0 and float(total).is_integer() for total in totals.values()), totals


def test_every_check_states_its_rule_and_has_inputs():
    """Each check names the instruction it enforces and has at least one input."""
    for check in ALL:
        assert check.rule.endswith(".") and len(check.rule) > 30, check.id
        assert check.inputs() or check.strategy is not None, check.id
        assert check.function in checks.FUNCTIONS


def test_checks_hold_no_expected_answers():
    """Cases carry inputs only: expected values are computed from the reference at grading time."""
    for check in ALL:
        for case in check.inputs():
            assert set(case.kwargs) <= {"output"}, check.id
            assert set(case.flags) <= {"return_args", "mutate_result"}, check.id


def test_every_family_file_is_found_and_names_its_checks():
    """Families are the files of graphcourse/checks/: each one's checks carry its name, so none hides in another."""
    files = {path.stem for path in (ROOT / "graphcourse" / "checks").glob("*.py")} - {"__init__", "__main__"}
    assert set(checks.FAMILIES) == files
    for module in checks.family_modules():
        family = module.__name__.rsplit(".", 1)[1]
        assert module.CHECKS and all(check.family == family for check in module.CHECKS), family


# Exact-judged cases: every number a sweep makes is exact in floating point, in whatever order it adds.
EXACT_SLOPES = {
    "add": lambda a, b, out: [(1,), (1,)],
    "sub": lambda a, b, out: [(1,), (-1,)],
    "mul": lambda a, b, out: [(b,), (a,)],
    "div": lambda a, b, out: [(1 / b,), (b * b, a / (b * b), -a / (b * b))],
    "sq": lambda a, out: [(2 * a,)],
    "relu": lambda a, out: [(1 if a > 0 else 0,)],
    "neg": lambda a, out: [(-1,)],
}


def representable(number, bits=53):
    """A rational with a power-of-two denominator and few enough bits to be a float exactly."""
    number = Fraction(number)
    denominator = number.denominator
    return denominator & (denominator - 1) == 0 and abs(number.numerator) < 2**bits


def exact_case_problems(case):
    """What keeps some sweep from being exact on the case: a value, slope or contribution that is no float, or
    contributions to one name whose partial sums (in any order) may round."""
    graph, values = case.args[0], {name: Fraction(value) for name, value in case.args[1].items()}
    output = case.kwargs.get("output") or graph[-1][0]
    grads = {name: Fraction(0) for name in values}
    grads[output] = Fraction(1)
    incoming = {name: [grads[name]] for name in values}
    problems = []
    for name, op, inputs in reversed(graph):
        if op not in EXACT_SLOPES:
            problems.append(f"{op} has no exact slope")
            continue
        steps = EXACT_SLOPES[op](*(values[i] for i in inputs), values[name])
        for i, parts in zip(inputs, steps):
            contribution = grads[name] * parts[-1]
            problems += [f"{name}: {part}" for part in (*parts, contribution) if not representable(part)]
            grads[i] += contribution
            incoming[i].append(contribution)
    for name, parts in incoming.items():
        scale = max(Fraction(part).denominator for part in parts)
        if not representable(sum(abs(part) for part in parts) * scale, bits=53) or not representable(values[name]):
            problems.append(f"the contributions to {name} may round")
    return problems, grads


EXACT = [
    (check, case)
    for check in ALL
    if check.strategy is None
    for case in check.inputs()
    if (case.expect or check.expect) == "exact"
]


def test_every_exact_judged_case_is_exact_for_any_sweep():
    """judge_exact compares gradients with ==: every value, slope, contribution and partial sum of its cases is a
    float exactly, so every correct sweep, adding in any order, gives the reference's answer bit for bit."""
    assert {check.family for check, _case in EXACT} == {
        "fan_out_accumulation",
        "backward_every_name",
        "reverse_order",
        "local_slopes",
    }
    for check, case in EXACT:
        problems, grads = exact_case_problems(case)
        assert not problems, (check.id, case.label, problems)
        answer = reference.backward([tuple(node) for node in case.args[0]], dict(case.args[1]), **case.kwargs)
        assert answer == {name: float(value) for name, value in grads.items()}, (check.id, case.label)


def test_no_value_family_node_after_the_output_reads_it():
    """Assigning instead of adding would overwrite the output's 1.0 with a later reader's contribution: no case of
    the value families lists a node after the output that reads it."""
    for check, case in EXACT:
        graph = case.args[0]
        output = case.kwargs.get("output") or graph[-1][0]
        names = [name for name, _op, _inputs in graph]
        after = graph[names.index(output) + 1 :]
        assert not any(output in inputs for _name, _op, inputs in after), (check.id, case.label)


def test_value_family_names_sort_in_listed_order():
    """A sweep by reverse name order goes as the right one on fan_out_accumulation's and local_slopes' graphs (order
    is reverse_order's business; backward_every_name's sums read leaves or names whose gradient is 0, in any order)."""
    for check, case in EXACT:
        if check.family not in ("fan_out_accumulation", "local_slopes"):
            continue
        names = [name for name, _op, _inputs in case.args[0]]
        assert names == sorted(names), (check.id, case.label)


def carried_back_reply(case, backward):
    """What backward's driver sends for ``case``: backward on its short input, then on the case's own input."""
    from graphcourse.builders import build
    from graphcourse.drivers.backward import BACKWARD_SHORT

    graph, values = build(BACKWARD_SHORT[case.driver])
    first = backward(graph, values, output=graph[-1][0])
    second = backward([tuple(node) for node in case.args[0]], dict(case.args[1]), **case.kwargs)
    return {"status": "ok", "value": [first, second], "args_after": [list(case.args[0]), dict(case.args[1])]}


def test_the_property_bar_passes_value_misconceptions_and_fails_answers_that_ignore_the_input():
    """The learner's own short answer, carried back block by block: a wrong seed, slope, order or assignment is
    wrong alike on both inputs and passes; zeros, the values handed back, and a shortcut for the longer input fail."""
    from graphcourse import zoo
    from graphcourse.judges import JUDGES

    check = next(c for c in ALL if c.id == "no_mutation/backward")
    passing = [
        "buggy_seed_every_gradient",
        "buggy_assign_plain",
        "buggy_sweep_by_name",
        "buggy_forgets_upstream",
        "buggy_forward_sweep",
        "buggy_sub_second_plus",
        "buggy_backward_output_entry_zero",
    ]
    failing = ["buggy_constant_backward_zeros", "buggy_constant_backward_values"]

    def shortcut(graph, values, output=None):  # right on short inputs, the anchor alone on longer ones
        if len(graph) < 20:
            return reference.backward(graph, values, output)
        answer = dict.fromkeys(values, 0.0)
        answer[output] = 1.0
        return answer

    for case in check.inputs():
        assert JUDGES[check.expect](check, case, carried_back_reply(case, reference.backward)) is None, case.label
        for name in passing:
            reply = carried_back_reply(case, zoo.namespace(name)["backward"])
            assert JUDGES[check.expect](check, case, reply) is None, (name, case.label)
        for name in failing:
            assert JUDGES[check.expect](check, case, carried_back_reply(case, zoo.namespace(name)["backward"])), name
        ones = carried_back_reply(case, lambda graph, values, output=None: dict.fromkeys(values, -1.0))
        assert JUDGES[check.expect](check, case, ones), "one number for every name"
        failure = JUDGES[check.expect](check, case, carried_back_reply(case, shortcut))
        assert failure and failure.status == "inconsistent", case.label
