"""A trace is a lesson-1 graph of its run: evaluate gives back its values, and backward's gradients match central
differences of fn."""

import math

from autograder.grading.compare import Failure, is_number, no_answer, short
from graphcourse.checks import Check
from graphcourse.checks.tape_records import TOLERANCE, tape_call
from solutions import graph as sweeps

RULE = (
    "trace(fn, leaves) returns (graph, values, output): evaluate(graph, its leaves and constants) gives back values, "
    "output names the Var fn returned (its value is fn's), and backward(graph, values, output) gives the slopes "
    "that central differences of fn measure."
)
FD_TOL, STEP = 1e-4, 1e-6  # as finite_difference_agreement


def as_trace(got):
    """(graph as tuples, values, output) from a [graph, values, output] the driver sent, or None if it is not one."""
    if (
        type(got) is not list
        or len(got) != 3
        or type(got[0]) is not list
        or type(got[1]) is not dict
        or not all(type(e) is list and len(e) == 3 and type(e[2]) is list for e in got[0])
    ):
        return None
    return [(name, op, list(inputs)) for name, op, inputs in got[0]], got[1], got[2]


def not_a_trace(case, got):
    return Failure(
        case,
        f"trace should return (graph, values, output): a graph of (name, op, inputs), a dict and a "
        f"name, but returned {short(got)}",
    )


def output_value(program, leaves):
    """fn's value at ``leaves``, as the reference's trace records it."""
    from graphcourse.drivers.tape import tape_trace
    from solutions import tape

    _graph, values, output = tape_trace(tape, program, leaves)
    return values[output]


def run_failure(case, parts, program, leaves, what="trace"):
    """None when a trace of ``program`` at ``leaves`` is a record of that run: evaluate on its graph gives back its
    values, and its output holds fn's value. How the entries are named and listed is Var's business, not trace's."""
    graph, values, output = parts
    odd = next((name for name, value in values.items() if not is_number(value)), None)
    if odd is not None:
        return Failure(
            case, f"the {what}'s values should map names to numbers, but {short(odd)} holds {short(values[odd])}"
        )
    nodes = {name for name, _op, _inputs in graph}
    start = {name: float(value) for name, value in values.items() if name not in nodes}  # floats: no giant ints here
    try:
        again = sweeps.evaluate(graph, start)
    except Exception as err:  # noqa: BLE001 - a graph of the learner's that lesson 1's evaluate cannot run
        return Failure(
            case,
            f"evaluate cannot run the graph of the {what} from its leaves and constants "
            f"({type(err).__name__}: {short(str(err), 120)})",
        )
    if again.keys() != values.keys():
        return Failure(
            case,
            f"evaluate on the {what}'s graph names {short(sorted(again))}, but its values name {short(sorted(values))}",
        )
    wrong = next((name for name in values if not is_close(again[name], values[name])), None)
    if wrong is not None:
        return Failure(
            case,
            f"evaluate on the {what}'s graph gives {wrong} = {again[wrong]!r}, but its values hold {values[wrong]!r}",
        )
    want = output_value(program, leaves)
    if type(output) is not str or output not in values or not is_close(values[output], want):
        held = f" holding {values[output]!r}" if type(output) is str and output in values else ""
        return Failure(case, f"fn returns a Var holding {want!r}, but the {what}'s output is {short(output)}{held}")
    return None


def is_close(got, want):
    numbers = (int, float)
    return (
        type(got) in numbers and type(want) in numbers and math.isclose(got, want, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    )


def agreement_failure(case, reply):
    """((graph, values, output), None) when a tape_trace reply records its run (run_failure); else (None, the
    Failure)."""
    failure = no_answer(case, reply)
    if failure:
        return None, failure
    parts = as_trace(reply.get("value"))
    if parts is None:
        return None, not_a_trace(case, reply.get("value"))
    failure = run_failure(case, parts, *case.args)
    return (None, failure) if failure else (parts, None)


def judge_agrees(check, case, reply):
    return agreement_failure(case, reply)[1]


def judge_gradients(check, case, reply):
    parts, failure = agreement_failure(case, reply)
    if failure:
        return failure
    graph, values, output = parts
    nodes = {name for name, _op, _inputs in graph}
    grads = sweeps.backward(
        graph, sweeps.evaluate(graph, {n: float(v) for n, v in values.items() if n not in nodes}), output
    )
    program, leaves = case.args
    for leaf in leaves:
        up = output_value(program, {**leaves, leaf: leaves[leaf] + STEP})
        down = output_value(program, {**leaves, leaf: leaves[leaf] - STEP})
        numeric = (up - down) / (2 * STEP)
        if not math.isclose(grads.get(leaf, 0.0), numeric, rel_tol=FD_TOL, abs_tol=FD_TOL):
            return Failure(
                case,
                f"central differences of fn give dL/d{leaf} = {numeric:.6g}, backward on the trace "
                f"gives {grads.get(leaf, 0.0)!r}",
            )
    return None


CASES = (
    tape_call(
        "trace",
        "lesson_one",
        {"a": 2.0, "b": -1.5, "c": 0.5},
        "fn(*, c, a, b) = (a*b + c)**2, leaves a, b, c",
        driver="tape_trace",
    ),
    tape_call(
        "trace", "quotient", {"a": 0.5, "b": 2.0}, "fn(b, a) = (b - a) / (a*2 + 1), leaves a, b", driver="tape_trace"
    ),
    tape_call(
        "trace", "smooth", {"x": 0.8, "y": 1.25}, "fn(x, y) = tanh(x*y) * x - 3/y + relu(x + 1)", driver="tape_trace"
    ),
    tape_call(
        "trace",
        "returns_earlier",
        {"x": 1.5},
        "fn(x): y = x*x; y + 1; return y (not the last entry)",
        driver="tape_trace",
    ),
    tape_call("trace", "returns_leaf", {"x": 1.5, "y": -0.5}, "fn(x, y): x*y; return y (a leaf)", driver="tape_trace"),
)

CHECKS = [
    Check("trace_agrees/evaluate", "trace", 2, RULE, "trace_agrees", cases=CASES),
    Check("trace_agrees/gradients", "trace", 1, RULE, "trace_gradients", cases=CASES[:3]),
]

JUDGES = {"trace_agrees": judge_agrees, "trace_gradients": judge_gradients}
