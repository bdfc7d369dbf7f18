"""backward_checkpointed holds O(sqrt(n)) numbers at a time on a chain of n: keeping every value cannot pass."""

import dataclasses
import functools
import math

from graphcourse.checks import Check, build
from graphcourse.checks.checkpoint_gradients import checkpoint_call, gradients_failure

RULE = ("backward_checkpointed holds only the checkpoints and one segment's values (and the gradients it still "
        "needs) at a time: on a chain of n nodes with every near sqrt(n), O(sqrt(n)) numbers, never one per node.")
# The runner measures the call's peak memory in a fresh sandbox child, from outside it, and compares it with
# the reference's on the same chain. Keeping one float per node costs at least 32 bytes a node (the float and
# its slot in a list; a dict costs more), so PER_NODE, half of that, fails any store of every value or every
# gradient, while a list of the graph's names (8 bytes a node) or the arguments' own copies pass.
LENGTH = 60_000
EVERY = math.isqrt(LENGTH)
PER_NODE, SLACK = 16, 256 << 10
SECONDS = 4.0  # the reference sweeps the chain in about 0.3 s of wall clock (building it included)


@functools.cache
def cases():
    description = {"shape": "checkpoint_chain", "length": LENGTH, "every": EVERY}
    graph, leaves, every = build(description)  # the child builds the same arguments from the description
    label = f"a chain of {LENGTH:,} nodes (products with w and tanh, in turn), every={EVERY}"
    case = checkpoint_call(graph, leaves, every, label=label, expect="checkpoint_gradients")
    return (dataclasses.replace(case, built=description, memory_bytes=PER_NODE * LENGTH + SLACK, seconds=SECONDS),)


def judge_bound(check, case, reply):
    """The answer's bar for a memory-bounded case: its gradients (the runner judges the memory)."""
    return gradients_failure(case, reply)


JUDGES = {"memory_bound": judge_bound}

CHECKS = [
    Check(
        "checkpoint_memory/chain",
        "backward_checkpointed",
        2,
        RULE,
        "memory_bound",
        cases=cases,
    ),
]
