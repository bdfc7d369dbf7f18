"""topological_order keeps each node's op and inputs, so lesson 2's backward on its answer gives the gradients of the
records."""

import functools
import math

from autograder.grading.compare import Failure, short
from graphcourse.checks import Check
from graphcourse.checks.order_valid import backwards, entries_of, leaves_of, order_call, order_failure
from solutions import graph as sweeps, order as reference

RULE = (
    "Each entry of topological_order's answer carries its node's own op and inputs (a new list, in the node's "
    "order), so backward on the answer gives the same gradients as the sweep over any valid order."
)
# Ops whose inputs cannot be swapped, and a node reading a node twice; names that sort into a valid order, given
# last first: only an entry's op or inputs can fail here.
QUOTIENTS = [("n1", "mul", ["a", "b"]), ("n2", "div", ["n1", "a"]), ("n3", "sub", ["n2", "n1"])]
TWICE = [("m1", "sub", ["b", "a"]), ("m2", "mul", ["m1", "m1"]), ("m3", "div", ["m2", "b"])]


@functools.cache
def leaf_values(leaves):
    """The values the sweeps run at: fixed, moderate, away from 0."""
    return {leaf: 0.5 + 0.3 * k for k, leaf in enumerate(sorted(leaves))}


def gradients(graph, case):
    """backward's leaf gradients on ``graph`` at leaf_values, the output being the records' last node in sorted order
    that nothing reads."""
    nodes = case.args[0]
    read = {i for _op, inputs in nodes.values() for i in inputs}
    output = max(name for name in nodes if name not in read)
    leaves = leaf_values(leaves_of(case))
    grads = sweeps.backward(graph, sweeps.evaluate(graph, leaves), output)
    return {leaf: grads[leaf] for leaf in leaves}


def judge_agrees(check, case, reply):
    failure = order_failure(case, reply)  # a valid order first: backward can run on nothing else
    if failure:
        return failure
    nodes = case.args[0]
    entries, _failure = entries_of(case, reply)
    first = {}  # each node at its first place: leaves and second listings are other families' business
    for name, op, inputs in entries:
        if name in nodes:
            first.setdefault(name, (name, op, inputs))
    graph = list(first.values())
    wrong = next(((name, op, inputs) for name, op, inputs in graph if [op, inputs] != nodes[name]), None)
    if wrong:
        name, op, inputs = wrong
        want = nodes[name]
        return Failure(
            case,
            f"the entry of {name!r} is {short((name, op, inputs))}, but its record is "
            f"{short((name, want[0], want[1]))}: backward on the answer sweeps another graph",
        )
    want = gradients(reference.topological_order({n: (op, list(i)) for n, (op, i) in nodes.items()}), case)
    got = gradients(graph, case)
    off = next((leaf for leaf in want if not math.isclose(got[leaf], want[leaf], rel_tol=1e-9, abs_tol=1e-12)), None)
    if off:
        return Failure(case, f"backward on the answer gives dL/d{off} = {got[off]!r}, on the records {want[off]!r}")
    return None


CHECKS = [
    Check(
        "order_agrees/backward",
        "topological_order",
        1,
        RULE,
        "order_agrees",
        cases=(
            order_call(backwards(QUOTIENTS), label="n1 = a*b, n2 = n1/a, n3 = n2 - n1, given n3 first"),
            order_call(backwards(TWICE), label="m1 = b - a, m2 = m1*m1, m3 = m2/b, given m3 first"),
        ),
    ),
]

JUDGES = {"order_agrees": judge_agrees}
