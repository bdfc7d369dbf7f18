"""A chain of 200,000 nodes works: no recursion, no per-node cost that grows with depth."""

from autograder.checks import Check, backward_call, call, chain

RULE = "backward runs without recursion, so a chain of 200,000 nodes works."
DEPTH = 200_000
GRAPH, LEAVES = chain(DEPTH)

CHECKS = [
    Check(
        "deep_graph/evaluate",
        "evaluate",
        2,
        "evaluate computes every node of a graph listed in order, however long the graph.",
        "reference",
        cases=(call("evaluate", GRAPH, LEAVES, label=f"a chain of {DEPTH:,} nodes", seconds=20.0),),
    ),
    Check(
        "deep_graph/backward",
        "backward",
        4,
        RULE,
        "reference",
        cases=(backward_call(GRAPH, LEAVES, label=f"a chain of {DEPTH:,} nodes", seconds=20.0),),
    ),
]
