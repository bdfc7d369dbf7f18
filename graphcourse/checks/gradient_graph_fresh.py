"""gradient_graph's new nodes have fresh names, even when the graph's own leaves and nodes carry the very names it
invents."""

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import (
    below,
    derivatives_failure,
    read_answer,
    symbolic_call,
)
from graphcourse.drivers.symbolic import symbolic_renamed

RULE = (
    "The new nodes of graph2 have fresh names, which appear nowhere in graph, not even as leaves: a graph whose "
    "names are the ones gradient_graph invents gets other names."
)


def judge_fresh(check, case, reply):
    """The template's placeholders renamed, here, with the names the first call invented (the driver's own rule),
    and the second call's answer judged on that graph as gradient_graph_first judges any graph."""
    failure = no_answer(case, reply)
    if failure:
        return failure
    got = reply.get("value")
    if type(got) is not list or len(got) != 2 or type(got[0]) is not list or not all(type(n) is str for n in got[0]):
        return Failure(case, f"gradient_graph's answer could not be read as (graph2, grads): {short(got)}")
    invented, answer = got
    graph = symbolic_renamed([(name, op, list(inputs)) for name, op, inputs in case.args[0]], invented)
    graph2, grads, failure = read_answer(case, answer, graph)
    if failure:
        failure.summary = (
            f"on the graph {short(graph, 200)}, named with the names your first call invented: {failure.summary}"
        )
        return failure
    return derivatives_failure(case, graph, case.args[1], graph2, grads, below(graph, case.args[1]))


# "#0", "#1", ... are renamed with the first call's new names (graphcourse/drivers/symbolic.py); sums, differences,
# negations and a square, no name read twice: only the names are in question.
CHECKS = [
    Check(
        "gradient_graph_fresh/invented_names",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_fresh",
        cases=(
            symbolic_call(
                [("#2", "neg", ["#0"]), ("#3", "sub", ["#2", "#1"]), ("L", "sq", ["#3"])],
                driver="symbolic_fresh",
                label="L = (-#0 - #1)**2, then the same graph with #0 ... #3 named as your new nodes",
            ),
            symbolic_call(
                [("p", "add", ["#0", "#1"]), ("L", "neg", ["p"])],
                driver="symbolic_fresh",
                label="L = -(#0 + #1), then the same graph with leaves #0, #1 named as your new nodes",
            ),
        ),
    ),
]

JUDGES = {"gradient_graph_fresh": judge_fresh}
