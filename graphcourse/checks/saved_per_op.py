"""saved_for_backward lists, for every node, what its slopes read: a product's and a quotient's inputs, sq's and relu's
input, tanh's own output, and nothing for add, sub and neg."""

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Check, call

RULE = (
    "saved_for_backward(graph) maps every node, and nothing else, to the names its local slopes read, in input "
    "order: mul and div their inputs, sq and relu their input, tanh the node's own output, add, sub and neg nothing."
)


def saved_call(graph, label, **extra):
    return call("saved_for_backward", graph, label=label, **extra)


def saved_failure(case, reply, got=None):
    """None when the answer (the reply's, or ``got``) is the reference's lists, node by node; else the Failure."""
    from graphcourse.judges import reference_answer  # here, not at import: judges.py imports the families

    if got is None:
        failure = no_answer(case, reply)
        if failure:
            return failure
        got = reply.get("value")
    want = reference_answer(case)
    if type(got) is not dict:
        return Failure(
            case, f"saved_for_backward should return a dict of node -> list of names, but returned {short(got)}"
        )
    for name, op, inputs in case.args[0]:
        if name not in got:
            return Failure(case, f"the result has no entry for the node {name!r}", got=got)
        saved = got[name]
        if type(saved) is not list or not all(type(n) is str for n in saved):
            return Failure(case, f"node {name!r} should map to a list of names, not {short(saved)}", got=got)
        if saved != want[name]:
            shown = f"{name} = {op}({', '.join(inputs)})"
            return Failure(case, f"{shown} saves {short(saved)}, but its slopes read {short(want[name])}", got=got)
    extra = [name for name in got if name not in want]
    if extra:
        return Failure(
            case,
            f"the result has entries for {short(extra)}, which are not nodes of the graph (only nodes "
            "have an entry, not leaves)",
            got=got,
        )
    return None


def judge_saved(check, case, reply):
    return saved_failure(case, reply)


# No case here reads a name twice within one node (saved_once's business), and each check holds a node whose list
# is not empty, so that no answer that ignores the graph passes.
CHECKS = [
    Check(
        "saved_per_op/reads_inputs",
        "saved_for_backward",
        2,
        RULE,
        "saved_lists",
        cases=(
            saved_call([("p", "mul", ["w", "b"])], label="p = w*b: the names in input order, not sorted"),
            saved_call(
                [("q", "div", ["v", "u"]), ("r", "relu", ["q"]), ("s", "sq", ["r"]), ("m", "mul", ["s", "u"])],
                label="q = v/u, r = relu(q), s = r**2, m = s*u",
            ),
        ),
    ),
    Check(
        "saved_per_op/reads_nothing",
        "saved_for_backward",
        2,
        RULE,
        "saved_lists",
        cases=(
            saved_call(
                [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("e", "sub", ["z", "p"]), ("n", "neg", ["e"])],
                label="p = a*b, z = p + c, e = z - p, n = -e",
            ),
            saved_call(
                [("u", "sub", ["x", "y"]), ("v", "add", ["u", "x"]), ("q", "div", ["v", "y"])],
                label="u = x - y, v = u + x, q = v/y",
            ),
        ),
    ),
    Check(
        "saved_per_op/tanh_output",
        "saved_for_backward",
        2,
        RULE,
        "saved_lists",
        cases=(
            saved_call([("y", "tanh", ["u"]), ("z", "mul", ["y", "w"])], label="y = tanh(u), z = y*w"),
            saved_call(
                [("h", "tanh", ["p"]), ("k", "tanh", ["h"]), ("r", "relu", ["k"])],
                label="h = tanh(p), k = tanh(h), r = relu(k)",
            ),
        ),
    ),
]

JUDGES = {"saved_lists": judge_saved}
