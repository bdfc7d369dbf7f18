"""backward runs in time linear in the number of edges: a quadratic sweep cannot pass."""

import functools

from graphcourse.checks import Check, built_call

RULE = "backward runs in time linear in the number of edges."
WIDTH = 12_000


@functools.cache
def cases():
    description = {"shape": "wide", "width": WIDTH}  # the child builds the graph: no JSON to decode
    return (built_call("backward", description, label=f"{WIDTH:,} nodes that all read x and y, summed"),)


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
