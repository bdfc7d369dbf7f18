"""topological_order leaves nodes as it was, and its answer's inputs are new lists."""

import copy

from autograder.grading.compare import Failure, short
from graphcourse.checks import Check
from graphcourse.checks.order_valid import backwards, order_call, order_failure

RULE = "topological_order does not modify nodes, and each inputs list of its answer is a new list."
KEEP = {"return_args": True}
# Names that sort into a valid order, given last first: only changing the records fails here.
TWO = [("p", "mul", ["x", "y"]), ("q", "add", ["p", "y"])]
THREE = [("a", "sq", ["x"]), ("b", "neg", ["a"]), ("c", "sub", ["b", "a"])]


def judge_unchanged(check, case, reply):
    """A valid order (so that leaving the records alone earns nothing on its own), and the records as they were."""
    failure = order_failure(case, reply)
    if failure:
        return failure
    before = copy.deepcopy(case.args[0])
    after = reply.get("args_after")
    after = after[0] if type(after) is list and len(after) == 1 else None
    if after == before and list(after) == list(before):
        return None
    if type(after) is not dict:
        return Failure(case, "topological_order changed its argument nodes")
    changed = next((name for name in before if after.get(name) != before[name]), None)
    if changed is not None:
        now = short(after[changed]) if changed in after else "gone"
        return Failure(
            case,
            f"topological_order changed its argument nodes: the record of {changed!r} was "
            f"{short(before[changed])}, and is now {now}",
        )
    return Failure(case, f"topological_order changed its argument nodes: its keys are now {short(list(after))}")


CHECKS = [
    Check(
        "order_no_mutation/records",
        "topological_order",
        1,
        RULE,
        "order_unchanged",
        cases=(
            order_call(backwards(TWO), label="p = x*y, q = p + y, given q first", flags=KEEP),
            order_call(
                backwards(THREE),
                label="a = x**2, b = -a, c = b - a, given c first, then the answer's inputs appended to",
                driver="order_then_edit",
                flags=KEEP,
            ),
        ),
    ),
]

JUDGES = {"order_unchanged": judge_unchanged}
