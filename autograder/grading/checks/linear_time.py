"""backward runs in time linear in the number of edges: a quadratic sweep cannot pass."""

import functools

from autograder.grading.checks import Check, backward_call

RULE = "backward runs in time linear in the number of edges."
WIDTH = 12_000


def wide_graph(width):
    """Every node reads the leaf x and the node before it: many edges, wide fan-out from x."""
    graph, previous = [], "x"
    for i in range(width):
        op = ("add", "mul", "sub")[i % 3]
        graph.append((f"h{i}", op, [previous, "x"]))
        previous = f"h{i}"
    return graph, {"x": 1.0}


@functools.cache
def cases():
    graph, leaves = wide_graph(WIDTH)
    return (backward_call(graph, leaves, label=f"{WIDTH:,} nodes that all read x"),)


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
