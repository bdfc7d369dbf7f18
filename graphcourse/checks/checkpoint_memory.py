"""backward_checkpointed holds O(sqrt(n)) numbers at a time on a chain of n: keeping every value cannot pass."""

import dataclasses
import functools
import math

from autograder.grading.compare import Failure
from graphcourse.checks import Check, build
from graphcourse.checks.checkpoint_gradients import checkpoint_call, gradients_failure

RULE = (
    "backward_checkpointed holds only the checkpoints and one segment's values (and the gradients it still "
    "needs) at a time: on a chain of n nodes with every near sqrt(n), O(sqrt(n)) numbers, never one per node."
)
# The runner measures the peak memory of loading the hand-in and making the call in a fresh sandbox child, from
# outside it, and compares it with the reference's on the same chain. Keeping one float per node costs at least
# NUMBER_BYTES a node (the float and its slot in a list; a dict costs more), so PER_NODE, half of that, fails any
# store of every value or every gradient, while a list of the graph's names (8 bytes a node) or the arguments'
# own copies pass. SLACK covers a hand-in's own code and the memory cgroup's charging in batches of pages.
LENGTH = 60_000
EVERY = math.isqrt(LENGTH)
NUMBER_BYTES = 32
PER_NODE, SLACK = NUMBER_BYTES // 2, 768 << 10
SECONDS = 4.0  # the reference sweeps the chain in about 0.3 s of wall clock (building it included)


@functools.cache
def cases():
    description = {"shape": "checkpoint_chain", "length": LENGTH, "every": EVERY}
    graph, leaves, every = build(description)  # the child builds the same arguments from the description
    label = f"a chain of {LENGTH:,} nodes (products with w and tanh, in turn), every={EVERY}"
    case = checkpoint_call(graph, leaves, every, label=label, expect="checkpoint_gradients")
    return (dataclasses.replace(case, built=description, memory_bytes=PER_NODE * LENGTH + SLACK, seconds=SECONDS),)


def judge_bound(check, case, reply):
    """The answer's bar for a memory-bounded case, its gradients; then, when the runner measured it, the memory,
    told in numbers kept (the rule's own unit), with MiB beside them."""
    failure = gradients_failure(case, reply)
    if failure or not {"memory_bytes", "memory_reference", "memory_limit"} <= set(reply):
        return failure
    used, reference, limit = reply["memory_bytes"], reply["memory_reference"], reply["memory_limit"]
    if used <= limit:
        return None
    return Failure(case, memory_summary(case, used, reference, limit), status="memory")


def _numbers(count):
    return f"{round(count, -2 if count >= 1000 else 0):,.0f}"


def memory_summary(case, used, reference, limit):
    """How many numbers more than the reference the call kept at its peak, against what the rule allows."""
    length, every = len(case.args[0]) if case.args else LENGTH, case.args[2] if len(case.args) > 2 else EVERY
    allowed = length // every + every  # the checkpoints, and one segment's values
    kept, spare = (used - reference) / NUMBER_BYTES, (limit - reference) / NUMBER_BYTES
    return (
        f"{case.fn} kept about {_numbers(kept)} numbers more than the reference at its peak, on a chain of "
        f"{length:,} nodes with every={every}: about {kept / length:.1f} per node. The rule allows about "
        f"{allowed:,} at a time ({length // every:,} checkpoints and one segment of {every:,} values), and a pass "
        f"keeps at most {_numbers(spare)} more than the reference (counting {NUMBER_BYTES} bytes a number: "
        f"{(used - reference) / 2**20:.2f} MiB above the reference's {reference / 2**20:.2f} MiB, where "
        f"{(limit - reference) / 2**20:.2f} MiB passes)"
    )


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
