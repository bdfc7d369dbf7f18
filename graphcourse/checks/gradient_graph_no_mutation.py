"""gradient_graph leaves the graph as it was, and graph2's inputs lists are its own."""

import copy

from autograder.grading.compare import Failure, short
from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import answer_failure, symbolic_call

RULE = "gradient_graph does not modify graph, and graph2's entries have inputs lists of their own, not graph's."


def judge_unchanged(check, case, reply):
    """Right derivatives (so that leaving the graph alone earns nothing on its own), and the graph as it was after
    every inputs list of graph2 was appended to."""
    failure = answer_failure(case, reply)
    if failure:
        return failure
    before = copy.deepcopy(case.args[0])
    after = reply.get("args_after")
    after = after[0] if type(after) is list and len(after) == 2 else None
    if after == before:
        return None
    return Failure(
        case, f"gradient_graph changed its argument graph: it was {short(before, 200)}, and is now {short(after, 200)}"
    )


CHECKS = [
    Check(
        "gradient_graph_no_mutation/graph",
        "gradient_graph",
        1,
        RULE,
        "gradient_graph_unchanged",
        cases=(
            symbolic_call(
                [("p", "add", ["x", "y"]), ("q", "neg", ["p"]), ("L", "sub", ["q", "z"])],
                label="p = x + y, q = -p, L = q - z, then every inputs list of graph2 appended to",
                driver="symbolic_then_edit",
                flags={"return_args": True},
            ),
        ),
    ),
]

JUDGES = {"gradient_graph_unchanged": judge_unchanged}
