"""topological_order runs in time linear in nodes plus edges: a scan for a ready node, again and again, cannot pass."""

import functools

from graphcourse.checks import Check
from graphcourse.checks.order_valid import order_call

RULE = "topological_order runs in time linear in the number of nodes plus edges."
# Timed against the reference, as linear_time is (the runner: 25 times its CPU time plus 0.25 s). Two levels,
# each node of the second reading one of the first: shallow, so recursion plays no part. The second level comes
# first and reads the first level backwards, so whenever a node becomes ready it sits behind every node still
# waiting: a pass that scans the records for a ready node makes 10,000 steps for each of 20,000 nodes.
# (20,000 records are 0.7 MB of JSON: the reference takes a few hundredths of a second of CPU on them, decoding
# included, and the scan about a minute.)
HALF = 10_000


@functools.cache
def cases():
    first = {f"a{k:05d}": [("mul", "add")[k % 2], ["x", "y"]] for k in range(HALF)}
    second = {f"b{k:05d}": ["sub", [f"a{HALF - 1 - k:05d}", "x"]] for k in range(HALF)}
    label = f"{2 * HALF:,} records: {HALF:,} nodes that read x and y, given after {HALF:,} that read them"
    return (order_call({**second, **first}, label=label, expect="order_valid"),)


CHECKS = [
    Check(
        "order_linear_time/two_levels",
        "topological_order",
        2,
        RULE,
        "linear_time",
        cases=cases,
    ),
]
