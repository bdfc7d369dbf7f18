"""gradient_graph differentiates its own graph2 again: second derivatives that agree with central differences of the
first, 192 for the diamond at x = 2."""

import functools
import json

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import (
    as_graph,
    is_close,
    points,
    read_answer,
    reference_gradients,
    symbolic_call,
    values_at,
)
from graphcourse.drivers.symbolic import symbolic_first_leaf
from solutions import graph as sweeps, symbolic

RULE = (
    "graph2 is a graph like any other, so gradient_graph(graph2, output=grads[x]) gives second derivatives: "
    "evaluated, they agree with central differences of the first derivative (to 1e-4), 192 for the diamond at x = 2."
)
FD_TOL, STEP = 1e-4, 1e-5
DIAMOND = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
AT = {"x": 2.0}  # the worked example's point


def twice_parts(case, reply):
    """(graph2, grads, graph3, grads3, x, None) from a symbolic_twice reply, every part checked; else the Failure
    last."""
    failure = no_answer(case, reply)
    if failure:
        return None, None, None, None, None, failure
    got = reply.get("value")
    if type(got) is not list or len(got) != 2:
        return None, None, None, None, None, Failure(case, f"gradient_graph's answers could not be read: {short(got)}")
    graph = case.args[0]
    x = symbolic_first_leaf(graph)
    graph2, grads, failure = read_answer(case, got[0], graph)
    if failure:
        return None, None, None, None, x, failure
    if got[1] is None or x not in grads:
        return (
            None,
            None,
            None,
            None,
            x,
            Failure(
                case,
                f"grads has no entry for the leaf {x!r}, so graph2 cannot be differentiated with output=grads[{x!r}]",
            ),
        )
    graph3, grads3, failure = read_answer(case, got[1], graph2)
    if failure:
        failure.summary = f"gradient_graph(graph2, output=grads[{x!r}]): {failure.summary}"
        return None, None, None, None, x, failure
    if x not in grads3:
        return (
            None,
            None,
            None,
            None,
            x,
            Failure(case, f"gradient_graph(graph2, output=grads[{x!r}]) gives grads with no entry for {x!r}"),
        )
    return graph2, grads, graph3, grads3, x, None


def first_failure(case, graph2, grads, x, point):
    """graph2's dL/dx at ``point`` against lesson 2's backward: (its value, None) or (None, the Failure)."""
    graph, output = case.args[0], case.args[1]
    values, failure = values_at(case, graph2, len(graph), point)
    if failure:
        return None, failure
    want = reference_gradients(graph, output, point)[x]
    if not is_close(values[grads[x]], want):
        return None, Failure(
            case,
            f"at {short(point)}, graph2's node for dL/d{x} holds {short(values[grads[x]])}, but "
            f"lesson 2's backward gives {want!r}",
        )
    return values[grads[x]], None


def second_at(case, graph2, graph3, grads3, x, point):
    values, failure = values_at(case, graph3, len(graph2), point)
    return (None, failure) if failure else (values[grads3[x]], None)


@functools.lru_cache(maxsize=64)
def _reference_second(key):
    graph, output, point = json.loads(key)
    graph = as_graph(graph)
    x = symbolic_first_leaf(graph)
    graph2, grads = symbolic.gradient_graph(graph, output)
    graph3, grads3 = symbolic.gradient_graph(graph2, grads[x])
    return sweeps.evaluate(graph3, point)[grads3[x]]


def judge_worked_example(check, case, reply):
    graph2, grads, graph3, grads3, x, failure = twice_parts(case, reply)
    if failure:
        return failure
    _first, failure = first_failure(case, graph2, grads, x, AT)
    if failure:
        return failure
    got, failure = second_at(case, graph2, graph3, grads3, x, AT)
    if failure:
        return failure
    want = _reference_second(json.dumps([case.args[0], case.args[1], AT]))
    if not is_close(got, want):
        return Failure(
            case,
            f"at x = 2, gradient_graph(graph2, output=grads['x']) gives d2L/dx2 = {short(got)}, "
            f"expected {want!r} (48x**2)",
        )
    return None


def judge_central(check, case, reply):
    graph2, grads, graph3, grads3, x, failure = twice_parts(case, reply)
    if failure:
        return failure
    for point in points(case.args[0], case.args[1]):
        _first, failure = first_failure(case, graph2, grads, x, point)
        if failure:
            return failure
        got, failure = second_at(case, graph2, graph3, grads3, x, point)
        if failure:
            return failure
        ends = []
        for shift in (STEP, -STEP):
            values, failure = values_at(case, graph2, len(case.args[0]), {**point, x: point[x] + shift})
            if failure:
                return failure
            ends.append(values[grads[x]])
        numeric = (ends[0] - ends[1]) / (2 * STEP)
        if not is_close(got, numeric, FD_TOL):
            return Failure(
                case,
                f"at {short(point)}, gradient_graph(graph2, output=grads[{x!r}]) gives d2L/d{x}2 = "
                f"{short(got)}, but central differences of graph2's dL/d{x} give {numeric:.6g}",
            )
    return None


# Products, sums, differences and negations only (smooth everywhere): the second sweep meets graph2's own ops, one
# among them, and the products of gradients with factors that every graph2 holds.
CHECKS = [
    Check(
        "gradient_graph_second/worked_example",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_worked_example",
        cases=(symbolic_call(DIAMOND, label="the diamond L = 4x**4: 128 at x = 2, then 192", driver="symbolic_twice"),),
    ),
    Check(
        "gradient_graph_second/central_differences",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_second",
        cases=(
            symbolic_call(
                [("p", "mul", ["x", "y"]), ("q", "sub", ["p", "x"]), ("L", "mul", ["q", "x"])],
                label="L = (x*y - x)*x, differentiated twice in x",
                driver="symbolic_twice",
            ),
            symbolic_call(
                [
                    ("a", "mul", ["x", "x"]),
                    ("b", "mul", ["a", "y"]),
                    ("c", "add", ["b", "a"]),
                    ("n", "neg", ["c"]),
                    ("L", "mul", ["n", "x"]),
                ],
                label="L = -(x*x*y + x*x)*x, differentiated twice in x",
                driver="symbolic_twice",
            ),
        ),
    ),
]

JUDGES = {"gradient_graph_worked_example": judge_worked_example, "gradient_graph_second": judge_central}
