"""backward runs in time linear in the number of edges: a quadratic sweep cannot pass."""

import functools

from autograder.grading.checks import Check, backward_call

RULE = "backward runs in time linear in the number of edges."
WIDTH = 12_000


def wide_graph(width):
    """``width`` nodes that each read the leaves x and y, summed pairwise up a balanced tree.

    Many edges and a fan-out of ``width`` from each leaf, while the graph stays shallow: the output
    depends on every node, and depth (deep_graph's business) plays no part in the time.
    """
    graph, level = [], []
    for i in range(width):
        graph.append((f"h{i}", ("add", "mul", "sub")[i % 3], ["x", "y"]))
        level.append(f"h{i}")
    while len(level) > 1:
        paired = []
        for left, right in zip(level[0::2], level[1::2]):
            paired.append(f"s{len(graph) - width}")
            graph.append((paired[-1], "add", [left, right]))
        level = paired + level[len(paired) * 2:]
    return graph, {"x": 1.5, "y": 0.5}


@functools.cache
def cases():
    graph, leaves = wide_graph(WIDTH)
    return (backward_call(graph, leaves, output=graph[-1][0], label=f"{WIDTH:,} nodes that all read x and y, summed"),)


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
