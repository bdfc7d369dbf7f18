"""backward_checkpointed runs in time linear in the chain: recomputing each value from the leaves cannot pass."""

import functools

from graphcourse.builders import checkpoint_chain
from graphcourse.checks import Check
from graphcourse.checks.checkpoint_gradients import checkpoint_call

RULE = "backward_checkpointed runs in time linear in the length of the chain, for any every."
# Timed against the reference, as linear_time is (the runner: 25 times its CPU time plus 0.25 s). The reference
# sweeps the 5,000 nodes in about 0.03 s of CPU; recomputing each node's input from the leaves applies about
# 12.5 million ops (ten seconds and more). A chain this long is also past the sandbox's recursion limit.
LENGTH, EVERY = 5_000, 70


@functools.cache
def cases():
    graph, leaves, every = checkpoint_chain(LENGTH, EVERY)
    label = f"a chain of {LENGTH:,} nodes (products with w and tanh, in turn), every={EVERY}"
    return (checkpoint_call(graph, leaves, every, label=label, expect="checkpoint_gradients"),)


CHECKS = [
    Check(
        "checkpoint_linear_time/chain",
        "backward_checkpointed",
        2,
        RULE,
        "linear_time",
        cases=cases,
    ),
]
