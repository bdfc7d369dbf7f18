"""tree_size sizes a chain of 10,000 nodes in one pass, without recursion."""

from graphcourse.checks import Check, call

RULE = "tree_size runs in one pass over the graph, without recursion, so a chain of 10,000 nodes works."
DEPTH = 10_000
# Negations, read once each: the tree is as large as the chain (10,001), so counting distinct nodes is no harm here.
CHAIN = [("t0", "neg", ["x"])] + [(f"t{k}", "neg", [f"t{k - 1}"]) for k in range(1, DEPTH)]

CHECKS = [
    Check(
        "tree_size_deep/chain",
        "tree_size",
        3,
        RULE,
        "tree_size",
        cases=(call("tree_size", CHAIN, f"t{DEPTH - 1}", label=f"a chain of {DEPTH:,} negations", seconds=5.0),),
    ),
]
