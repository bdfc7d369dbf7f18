"""topological_order works on a chain of 10,000 nodes given last node first: no recursion."""

import functools

from graphcourse.checks import Check
from graphcourse.checks.order_valid import order_call

RULE = "topological_order uses no recursion, so a chain of 10,000 nodes, its last node given first, works."
# The sandbox keeps Python's recursion limit of 1,000, so 10,000 nested calls fail as surely as 100,000 would,
# at a tenth of the cost. The last node comes first, so a depth-first pass must go all the way down from it;
# the others follow in order, so a scan for a ready node finds one at once (linear time is another family's).
DEPTH = 10_000
SECONDS = 5.0  # the reference needs a few hundredths of a second


@functools.cache
def cases():
    names = [f"n{k:05d}" for k in range(DEPTH)]  # names sort in chain order: sorting the answer is no harm here
    chain = {name: ["neg" if k % 2 else "tanh", [names[k - 1] if k else "x"]] for k, name in enumerate(names)}
    nodes = {names[-1]: chain[names[-1]], **{name: chain[name] for name in names[:-1]}}
    return (order_call(nodes, label=f"a chain of {DEPTH:,} nodes, the last given first", seconds=SECONDS),)


CHECKS = [
    Check(
        "order_deep/chain",
        "topological_order",
        2,
        RULE,
        "order_valid",
        cases=cases,
    ),
]
