"""The tape lists its entries in the order the operations ran: each one is appended after those before it."""

from autograder.grading.compare import Failure, short
from graphcourse.checks import Check
from graphcourse.checks.tape_records import run_parts, tape_call

RULE = "The tape's graph lists its entries in the order the operations ran, each appended after the ones before it."


def judge_in_order(check, case, reply):
    """The entries' ops and inputs, in the order the reference records them (their names are tape_records' business)."""
    got, want, failure = run_parts(case, reply)
    if failure:
        return failure
    ran = [entry[1:] for entry in want[0]]
    listed = [entry[1:] for entry in got[0]]
    if listed == ran:
        return None
    return Failure(
        case,
        f"the operations ran as {short([tuple(e) for e in ran], 240)}, but the tape lists them as "
        f"{short([tuple(e) for e in listed], 240)}",
    )


CHECKS = [
    Check(
        "tape_order/as_run",
        "Var",
        3,
        RULE,
        "tape_in_order",
        cases=(
            tape_call(
                "Var", "in_run_order", {"x": 0.5, "y": -1.0, "z": 2.0}, "y.tanh(), x * z, z - y, -x, in that order"
            ),
            tape_call("Var", "three_leaves", {"a": 2.0, "b": 3.0, "c": -1.0}, "a * b, b - c, c / a, in that order"),
        ),
    ),
]

JUDGES = {"tape_in_order": judge_in_order}
