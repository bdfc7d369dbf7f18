"""backward works on a chain of 200,000 nodes: no recursion, no per-node cost that grows with depth."""

import functools

from autograder.grading.checks import Check, backward_call, chain

RULE = "backward runs without recursion, so a chain of 200,000 nodes works."
DEPTH = 200_000


@functools.cache
def cases():
    graph, leaves = chain(DEPTH)
    return (backward_call(graph, leaves, label=f"a chain of {DEPTH:,} nodes", seconds=20.0),)


CHECKS = [
    Check(
        "deep_graph/backward",
        "backward",
        4,
        RULE,
        "reference",
        cases=cases,
    ),
]
