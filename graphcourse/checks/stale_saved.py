"""stale_reads goes by what a node saves, not by what it reads: a sum's inputs never make it stale, and tanh is stale
when its own output is replaced."""

from graphcourse.checks import Check
from graphcourse.checks.stale_position import stale_call

RULE = (
    "A node is stale only through the names it saves: a replaced input of a sum (which saves nothing) or of tanh "
    "(which saves its own output) makes neither stale, and replacing tanh's output after it ran does."
)

CHECKS = [
    Check(
        "stale_saved/saved_not_read",
        "stale_reads",
        1,
        RULE,
        "stale_list",
        cases=(
            stale_call(
                [(2, "y")], label="y = tanh(p) replaced after position 2: y saved itself; z = y + b saves nothing"
            ),
            stale_call(
                [(3, "b"), (1, "p"), (4, "y")],
                label="b (read by the sum z), p (read by tanh) and y (tanh's output) replaced",
            ),
        ),
    ),
]
