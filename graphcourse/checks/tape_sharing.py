"""A value read twice is one entry with two readers: the tape holds one entry per operation that ran, never a copy per
read."""

from graphcourse.checks import Check
from graphcourse.checks.tape_records import tape_call

RULE = (
    "A value used twice is one entry with two readers: reading a Var again records nothing, so the tape holds one "
    "entry per operation that ran (f(f(f(w))) with f(u) = u*u: 3 entries)."
)
# One op per program (names and constants are other families' business), and Vars read more than once.

CHECKS = [
    Check(
        "tape_sharing/read_twice",
        "Var",
        4,
        RULE,
        "tape_entries",
        cases=(
            tape_call(
                "Var", "f_of_f_of_f", {"w": 1.5}, "u = w*w; u = u*u; u*u: f(f(f(w))) with f(u) = u*u, at w = 1.5"
            ),
            tape_call("Var", "shared_sum", {"x": 0.5, "y": 2.0}, "u = x + y; v = u + u; v + u"),
        ),
    ),
]
