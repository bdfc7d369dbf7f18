"""Each new node of graph2 reads only names defined before it, so graph2 is a graph in computable order."""

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import (
    below,
    derivatives_failure,
    late_read,
    read_answer,
    symbolic_call,
)

RULE = (
    "graph2 is listed in computable order: each new node reads only names of graph and of new nodes listed before "
    "it, so lesson 1's evaluate runs it as it is."
)


def judge_defined_first(check, case, reply):
    failure = no_answer(case, reply)
    if failure:
        return failure
    graph, output = case.args[0], case.args[1]
    graph2, grads, failure = read_answer(case, reply.get("value"), graph)
    if failure:
        return failure
    late = late_read(graph2, len(graph))
    if late:
        entry, name = late
        return Failure(
            case,
            f"the new node {short(entry, 120)} reads {name!r}, which graph2 defines only after it: "
            "append a slope's nodes before the node that reads them",
        )
    return derivatives_failure(case, graph, output, graph2, grads, below(graph, output))


# Slopes that need nodes of their own (sq's, relu's, div's), no product of two names, no tanh, no fan-out.
CHECKS = [
    Check(
        "gradient_graph_defined_first/order",
        "gradient_graph",
        1,
        RULE,
        "gradient_graph_defined_first",
        cases=(
            symbolic_call(
                [("s", "sq", ["x"]), ("r", "relu", ["s"]), ("q", "div", ["r", "y"])],
                label="s = x**2, r = relu(s), q = r/y",
            ),
        ),
    ),
]

JUDGES = {"gradient_graph_defined_first": judge_defined_first}
