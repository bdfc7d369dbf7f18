"""gradient_graph works on a chain of 10,000 nodes: one sweep, no recursion."""

import functools

from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import symbolic_call

RULE = "gradient_graph builds graph2 in one sweep, in time linear in the graph and without recursion, so a chain of 10,000 nodes works."
# The sandbox keeps Python's recursion limit of 1,000. Negations, each read once: no fan-out and no slope beyond -1,
# so only the depth is in question. The reference builds its 10,001 new nodes in a few hundredths of a second.
DEPTH = 10_000


@functools.cache
def negations(depth):
    graph = [("n0", "neg", ["x"])] + [(f"n{k}", "neg", [f"n{k - 1}"]) for k in range(1, depth)]
    return symbolic_call(graph, label=f"a chain of {depth:,} negations", seconds=5.0)


@functools.cache
def cases():
    return (negations(DEPTH),)


def growth(case):
    """Chains of a quarter and a half of the length: how a call too slow on the long one grows."""
    return "nodes", [(depth, negations(depth)) for depth in (DEPTH // 4, DEPTH // 2)]


CHECKS = [
    Check(
        "gradient_graph_deep/chain",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_first",
        cases=cases,
        growth=growth,
    ),
]
