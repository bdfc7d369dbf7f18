"""backward works on a chain of 200,000 nodes: no recursion, no per-node cost that grows with depth."""

import functools

from graphcourse.checks import Check, built_call

RULE = "backward runs without recursion, so a chain of 200,000 nodes works."
# The property alone is judged (graphcourse/judges.py, judge_returns): the call returns, in time, a
# plain dict naming every node; the numbers are the value families' business.
DEPTH = 200_000
# The reference sweeps the chain in about 0.1 s; 8 s leaves a slow but linear sweep far more than it needs on
# a busy machine, and ends a quadratic one (which could not finish in hours) without holding the batch.
SECONDS = 8.0


@functools.cache
def cases():
    description = {"shape": "chain", "length": DEPTH}  # the child builds the chain: no 10 MB of JSON
    return (built_call("backward", description, label=f"a chain of {DEPTH:,} nodes", seconds=SECONDS),)


CHECKS = [
    Check(
        "deep_graph/backward",
        "backward",
        4,
        RULE,
        "returns",
        cases=cases,
    ),
]
