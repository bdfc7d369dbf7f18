"""saved_for_backward, stale_reads and backward_checkpointed leave their arguments as they were, and
saved_for_backward's lists are new ones."""

import copy
import dataclasses

from autograder.grading.compare import Failure, short
from graphcourse.checks import Check
from graphcourse.checks.checkpoint_gradients import checkpoint_call, gradients_failure, power_chain
from graphcourse.checks.saved_per_op import saved_call, saved_failure
from graphcourse.checks.stale_position import stale_call, stale_failure

KEEP = {"return_args": True}
NAMES = {
    "saved_for_backward": ("graph",),
    "stale_reads": ("graph", "overwritten"),
    "backward_checkpointed": ("graph", "leaves", "every"),
}


def unchanged_failure(case, reply):
    """None when the call's arguments came back as they went in; else the Failure naming the one that changed."""
    before = copy.deepcopy(list(case.args))
    after = reply.get("args_after")
    if after == before:
        return None
    names = NAMES[case.fn]
    if type(after) is not list or len(after) != len(before):
        return Failure(case, f"{case.fn} changed its arguments")
    changed = next(k for k in range(len(before)) if after[k] != before[k])
    return Failure(
        case,
        f"{case.fn} changed its argument {names[changed]}: it was {short(before[changed])}, and is now "
        f"{short(after[changed])}",
    )


def judge_saved(check, case, reply):
    """The right lists (so that leaving the graph alone earns nothing on its own), and the graph as it was after
    every list of the answer was appended to."""
    return saved_failure(case, reply) or unchanged_failure(case, reply)


def judge_stale(check, case, reply):
    return stale_failure(case, reply) or unchanged_failure(case, reply)


def judge_checkpointed(check, case, reply):
    return gradients_failure(case, reply) or unchanged_failure(case, reply)


# Products, a quotient and relu only, none reading a name twice: what a node saves is saved_per_op's business.
SAVED = saved_call(
    [("p", "mul", ["w", "b"]), ("q", "div", ["p", "w"]), ("r", "relu", ["q"])],
    label="p = w*b, q = p/w, r = relu(q), then every list of the answer appended to",
    flags=KEEP,
)

CHECKS = [
    Check(
        "memory_no_mutation/saved_for_backward",
        "saved_for_backward",
        1,
        "saved_for_backward does not modify the graph, and each list of its answer is a new list.",
        "memory_saved_unchanged",
        cases=(dataclasses.replace(SAVED, driver="memory_saved_then_edit"),),
    ),
    Check(
        "memory_no_mutation/stale_reads",
        "stale_reads",
        1,
        "stale_reads modifies neither the graph nor overwritten.",
        "memory_stale_unchanged",
        cases=(
            stale_call([(4, "w"), (0, "x"), (1, "z")], label="w, x and z replaced, not in position order", flags=KEEP),
        ),
    ),
    Check(
        "memory_no_mutation/backward_checkpointed",
        "backward_checkpointed",
        2,
        "backward_checkpointed modifies neither the graph nor leaves.",
        "memory_checkpointed_unchanged",
        cases=(checkpoint_call(power_chain(8), {"x": 3.0, "w": 1.25}, 3, label="8 products, every=3", flags=KEEP),),
    ),
]

JUDGES = {
    "memory_saved_unchanged": judge_saved,
    "memory_stale_unchanged": judge_stale,
    "memory_checkpointed_unchanged": judge_checkpointed,
}
