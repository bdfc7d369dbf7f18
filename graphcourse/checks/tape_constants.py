"""A number on either side of an operator becomes a new constant leaf k<j>, one per use, read in its place."""

from graphcourse.checks import Check
from graphcourse.checks.tape_records import tape_call

RULE = (
    "A number used as an operand, on either side, becomes a new leaf named k<j> (k0, k1, ... per tape, one per use) "
    'holding it, read in the number\'s place: 2 * x records ("t0", "mul", ["k0", "x"]).'
)
# One op per program, leaves read directly: only the numbers can go wrong here.

CHECKS = [
    Check(
        "tape_constants/either_side",
        "Var",
        4,
        RULE,
        "tape_entries",
        cases=(
            tape_call("Var", "added_numbers", {"x": 1.5, "y": -2.0}, "x + 0.5, 2 + y, 3 + x"),
            tape_call("Var", "subtracted_numbers", {"x": 1.5}, "x - 1, 4 - x"),
            tape_call("Var", "multiplied_numbers", {"x": 1.5}, "2 * x, x * 2"),
            tape_call("Var", "divided_numbers", {"x": 1.5}, "1 / x, x / 4"),
        ),
    ),
]
