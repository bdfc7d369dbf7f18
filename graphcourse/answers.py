"""The judges of the graph course's answer questions (ORDER, EDGE_COUNT, GRAD_Z, ...).

Every expected answer is derived here from the references and the worked examples
(or, for the assign-instead-of-add question, from that misconception's zoo entry), so
nothing is typed twice. A judge returns "" for a right answer, or a teaching message
that says what is wrong without handing over the answer. Questions whose answer is a
plain value use the kit's own judges (equals, one_of, choice: autograder/grading/answers.py).
"""

import functools
import math

from autograder.grading.answers import Judge, show as _show
from graphcourse import zoo
from graphcourse.examples import ABA_SQUARED, ABC_LEAVES, ABC_SQUARED, DIAMOND, DIAMOND_LEAVES
from solutions import graph as reference

ASSIGN_ENTRY = "buggy_assign_fan_out"  # the zoo entry whose sweep keeps only the last contribution


def _is_name_list(value):
    return type(value) is list and all(type(v) is str for v in value)


def _nodes(graph):
    return [name for name, _op, _inputs in graph]


def _leaves(graph):
    nodes = set(_nodes(graph))
    return sorted({i for _n, _op, inputs in graph for i in inputs} - nodes)


def _all_names(graph):
    return _leaves(graph) + _nodes(graph)


def judge_order(values, _cell=None):
    order = values["ORDER"]
    nodes = _nodes(ABA_SQUARED)
    if not _is_name_list(order):
        return f'ORDER should be a list of node names such as ["x", "y"], but it is {_show(order)}.'
    if sorted(order) != sorted(nodes):
        leaves = [name for name in order if name in _leaves(ABA_SQUARED)]
        if leaves:
            return f"ORDER = {_show(order)} lists the leaf {leaves[0]!r}; list the graph's nodes only, each once."
        return f"ORDER = {_show(order)} should list each of the graph's {len(nodes)} nodes exactly once."
    position = {name: i for i, name in enumerate(order)}
    reordered = sorted(ABA_SQUARED, key=lambda node: position[node[0]])
    try:
        reference.evaluate(reordered, {leaf: 1.0 for leaf in _leaves(ABA_SQUARED)})
    except ValueError as err:
        return (
            f"ORDER = {_show(order)} cannot be computed in that order: {err}. "
            "Each node must come after the nodes it reads."
        )
    return ""


def judge_inputs_of_q(values, _cell=None):
    got = values["INPUTS_OF_Q"]
    want = reference.inputs_of(ABA_SQUARED, "q")
    if not _is_name_list(got):
        return f"INPUTS_OF_Q should be a list of names, but it is {_show(got)}."
    if sorted(got) == sorted(want):
        return ""
    extra = [name for name in got if name not in want]
    if extra:
        return (
            f"INPUTS_OF_Q = {_show(got)}: {extra[0]!r} has no arrow straight into q. List only the values q reads "
            "directly, nothing further back."
        )
    return f"INPUTS_OF_Q = {_show(got)}: q reads {len(want)} values directly; list each of them once."


def judge_fan_out_node(values, _cell=None):
    got = values["FAN_OUT_NODE"]
    fan_outs = [name for name in _all_names(ABA_SQUARED) if len(reference.users_of(ABA_SQUARED, name)) >= 2]
    if type(got) is not str:
        return f'FAN_OUT_NODE should be one name, as a string such as "x", but it is {_show(got)}.'
    if got in fan_outs:
        return ""
    if got not in _all_names(ABA_SQUARED):
        return f"FAN_OUT_NODE = {_show(got)} is not a name in this graph."
    readers = reference.users_of(ABA_SQUARED, got)
    said = f"only by {readers[0]}" if readers else "by no node"
    return f"FAN_OUT_NODE = {got!r} is read {said}. A fan-out is a value with arrows to two different nodes."


def judge_edge_count(values, _cell=None):
    got = values["EDGE_COUNT"]
    want = sum(len(reference.inputs_of(ABA_SQUARED, name)) for name in _nodes(ABA_SQUARED))
    if type(got) is not int:
        return f"EDGE_COUNT should be a whole number (an int), but it is {_show(got)}."
    if got == want:
        return ""
    return (
        f"EDGE_COUNT = {got} is not the number of arrows. Count one edge for every name in every node's inputs "
        "list, leaves included."
    )


def judge_gradient_of_z(values, _cell=None):
    """dL/dz in L = (a*b + c)**2 at the worked example: the upstream gradient, not z's forward value."""
    got = values["GRAD_Z"]
    forward = reference.evaluate(ABC_SQUARED, ABC_LEAVES)
    want = reference.backward(ABC_SQUARED, forward)["z"]
    if type(got) not in (int, float) or abs(got) > 1e300 or not math.isfinite(got):
        return f"GRAD_Z should be a number, but it is {_show(got)}."
    if math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9):
        return ""
    if math.isclose(got, forward["z"], rel_tol=1e-9, abs_tol=1e-9):
        return (
            f"GRAD_Z = {got!r} is z's forward value: what z is, not how fast L moves when z moves. Start from "
            "dL/dL = 1 and take one step back through L = z**2."
        )
    return (
        f"GRAD_Z = {got!r}: L = z**2, so the gradient arriving at z is the square's local slope at z's value, times 1."
    )


@functools.lru_cache(maxsize=1)
def assign_sweep():
    """(x's gradient, first node whose gradient is wrong) for the sweep that assigns instead of adding.

    Both come from running the misconception's zoo entry (our own code) next to the
    reference on the lesson's worked example, the diamond at x = 2.
    """
    values = reference.evaluate(DIAMOND, DIAMOND_LEAVES)
    buggy = zoo.namespace(ASSIGN_ENTRY)["backward"](DIAMOND, values)
    right = reference.backward(DIAMOND, values)
    sweep = [name for name, _op, _inputs in reversed(DIAMOND)] + _leaves(DIAMOND)
    first_wrong = next(name for name in sweep if not math.isclose(buggy[name], right[name]))
    (leaf,) = _leaves(DIAMOND)
    return buggy[leaf], first_wrong


def judge_assign_instead_of_add(values, _cell=None):
    x, first_wrong = assign_sweep()
    got_x, got_first = values["ASSIGN_X"], values["FIRST_WRONG"]
    problems = []
    if type(got_x) not in (int, float) or abs(got_x) > 1e300 or not math.isfinite(got_x):
        problems.append(f"ASSIGN_X should be a number, but it is {_show(got_x)}.")
    elif not math.isclose(got_x, x, rel_tol=1e-9, abs_tol=1e-9):
        right_x = reference.backward(DIAMOND, reference.evaluate(DIAMOND, DIAMOND_LEAVES))["x"]
        if math.isclose(got_x, right_x):
            problems.append(
                f"ASSIGN_X = {got_x!r} is what the correct sweep returns. With `=`, a value that receives several "
                "contributions keeps only the last one to arrive."
            )
        else:
            problems.append(
                f"ASSIGN_X = {got_x!r}: redo the sweep node by node, keeping only the last contribution that reaches "
                "each value."
            )
    sweep = [name for name, _op, _inputs in reversed(DIAMOND)] + _leaves(DIAMOND)
    if got_first != first_wrong:
        if got_first not in sweep:
            problems.append(
                f"FIRST_WRONG should be one of {', '.join(repr(n) for n in sweep)}, but it is {_show(got_first)}."
            )
        elif sweep.index(got_first) < sweep.index(first_wrong):
            problems.append(
                f"FIRST_WRONG = {got_first!r}: that gradient still comes out right; look at the next node the sweep "
                "visits, the first one that receives more than one contribution."
            )
        else:
            problems.append(
                f"FIRST_WRONG = {got_first!r}: an earlier node in the sweep already comes out wrong; find the first "
                "one that receives more than one contribution."
            )
    return " ".join(problems)


JUDGES = {
    "order": Judge(("ORDER",), judge_order, "List the nodes in an order in which they can be computed."),
    "inputs_of_q": Judge(("INPUTS_OF_Q",), judge_inputs_of_q, "List the immediate inputs of q."),
    "fan_out_node": Judge(("FAN_OUT_NODE",), judge_fan_out_node, "Name the value read by two nodes."),
    "edge_count": Judge(("EDGE_COUNT",), judge_edge_count, "Count the edges of the whole graph."),
    "gradient_of_z": Judge(("GRAD_Z",), judge_gradient_of_z, "Give the gradient that arrives at z, not z's value."),
    "assign_instead_of_add": Judge(
        ("ASSIGN_X", "FIRST_WRONG"),
        judge_assign_instead_of_add,
        "Redo the diamond's sweep with `=` in place of `+=`.",
    ),
}
