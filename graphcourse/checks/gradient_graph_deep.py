"""gradient_graph works on a chain of 5,000 nodes, in time that grows linearly: one sweep, no recursion."""

import functools

from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import symbolic_call

RULE = (
    "gradient_graph builds graph2 in one sweep, in time linear in the graph and without recursion, "
    "so a chain of thousands of nodes works."
)
# The sandbox keeps Python's recursion limit of 1,000, so every size below is past it. Negations, each read once:
# no fan-out and no slope beyond -1, so only the depth and the time are in question. The time is judged by how it
# grows (the runner's linear_growth) against the reference's on the same chains, never by a clock alone: a sweep that
# searches a list of the names for each new one takes about 20 times as long on four times the chain, on any machine,
# where the reference (a few hundredths of a second on 5,000 nodes) takes about four times as long.
SIZES = (1_250, 2_500, 5_000)


@functools.cache
def negations(depth):
    graph = [("n0", "neg", ["x"])] + [(f"n{k}", "neg", [f"n{k - 1}"]) for k in range(1, depth)]
    return symbolic_call(graph, label=f"a chain of {depth:,} negations", expect="gradient_graph_first", seconds=5.0)


@functools.cache
def cases():
    return (negations(SIZES[-1]),)


def growth(case):
    """The chain at each size of SIZES, the case itself the largest."""
    return "nodes", [(depth, negations(depth)) for depth in SIZES[:-1]] + [(SIZES[-1], case)]


CHECKS = [
    Check(
        "gradient_graph_deep/chain",
        "gradient_graph",
        2,
        RULE,
        "linear_growth",
        cases=cases,
        growth=growth,
    ),
]
