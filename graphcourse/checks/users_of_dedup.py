"""users_of lists a node that reads a value twice only once."""

from graphcourse.checks import Check, call
from graphcourse.examples import DIAMOND

RULE = "users_of(graph, name) lists each node that reads name once, even when it reads the value twice."
# Each name asked about has one reader, which reads it twice: order and completeness are users_of_order's.

CHECKS = [
    Check(
        "users_of_dedup/repeated_input",
        "users_of",
        4,
        RULE,
        "reference",
        cases=(
            call("users_of", DIAMOND, "x", label="a = x*x reads x twice"),
            call("users_of", DIAMOND, "a", label="t = a + a reads a twice"),
        ),
    ),
    Check(
        "users_of_dedup/twice_by_its_reader",
        "users_of",
        4,
        RULE,
        "reference",
        cases=(
            call(
                "users_of",
                [("m", "add", ["v", "u"]), ("k", "mul", ["w", "w"]), ("r", "sub", ["v", "k"])],
                "w",
                label="w read twice by k, its only reader",
            ),
        ),
    ),
]
