"""backward runs in time linear in the number of edges: a quadratic sweep cannot pass."""

import functools

from autograder.grading.checks import Check, backward_call, described
from autograder.sandbox.builders import wide as wide_graph  # one definition, shared with the sandbox child

RULE = "backward runs in time linear in the number of edges."
WIDTH = 12_000


@functools.cache
def cases():
    graph, leaves = wide_graph(WIDTH)
    case = backward_call(graph, leaves, output=graph[-1][0], label=f"{WIDTH:,} nodes that all read x and y, summed")
    return (described(case, {"shape": "wide", "width": WIDTH}),)  # the child builds the graph: no JSON to decode


CHECKS = [
    Check(
        "linear_time/wide_fan_out",
        "backward",
        4,
        RULE,
        "linear_time",
        cases=cases,
    ),
]
