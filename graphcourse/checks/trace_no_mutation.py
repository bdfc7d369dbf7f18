"""trace leaves the caller's leaves dict as it was."""

import copy

from autograder.grading.compare import Failure, short
from graphcourse.checks import Check
from graphcourse.checks.tape_records import tape_call
from graphcourse.checks.trace_agrees import agreement_failure

RULE = "trace(fn, leaves) does not modify the caller's leaves dict."


def judge_unchanged(check, case, reply):
    """A record of the run (so that leaving leaves alone earns nothing on its own), and leaves as they were."""
    failure = agreement_failure(case, reply)[1]
    if failure:
        return failure
    before = copy.deepcopy(list(case.args))
    after = reply.get("args_after")
    if after == before:
        return None
    now = after[1] if type(after) is list and len(after) == 2 else after
    return Failure(case, f"trace changed the caller's leaves: they were {short(before[1])}, and are now {short(now)}")


CHECKS = [
    Check(
        "trace_no_mutation/leaves",
        "trace",
        1,
        RULE,
        "trace_unchanged",
        cases=(
            tape_call(
                "trace",
                "diamond",
                {"x": 1.5},
                "trace(diamond, {'x': 1.5})",
                driver="tape_trace",
                flags={"return_args": True},
            ),
        ),
    ),
]

JUDGES = {"trace_unchanged": judge_unchanged}
