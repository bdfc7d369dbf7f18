"""tree_size sizes a chain of 10,000 nodes in one pass, without recursion."""

import functools

from graphcourse.checks import Check, call

RULE = "tree_size runs in one pass over the graph, without recursion, so a chain of 10,000 nodes works."
DEPTH = 10_000
# Negations, read once each: the tree is as large as the chain (10,001), so counting distinct nodes is no harm here.


def negations(depth):
    """tree_size on a chain of ``depth`` negations, asked for its last node."""
    chain = [("t0", "neg", ["x"])] + [(f"t{k}", "neg", [f"t{k - 1}"]) for k in range(1, depth)]
    return call("tree_size", chain, f"t{depth - 1}", label=f"a chain of {depth:,} negations", seconds=5.0)


@functools.cache
def cases():
    """The chain of DEPTH negations, built when a grade asks for it: not by every process that lists the checks."""
    return (negations(DEPTH),)


def growth(case):
    """Chains of a quarter and a half of the length: how a call too slow on the long one grows."""
    return "nodes", [(depth, negations(depth)) for depth in (DEPTH // 4, DEPTH // 2)]


CHECKS = [
    Check(
        "tree_size_deep/chain",
        "tree_size",
        3,
        RULE,
        "tree_size",
        cases=cases,
        growth=growth,
    ),
]
