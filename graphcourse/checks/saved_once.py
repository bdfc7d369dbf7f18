"""saved_for_backward lists a name once per node, even when the node reads it twice (mul x x saves ["x"])."""

from graphcourse.checks import Check
from graphcourse.checks.saved_per_op import saved_call

RULE = (
    "saved_for_backward lists each name once per node: mul x x reads x along two edges, but x is one stored value, "
    'so the node saves ["x"].'
)

CHECKS = [
    Check(
        "saved_once/read_twice",
        "saved_for_backward",
        1,
        RULE,
        "saved_lists",
        cases=(
            saved_call([("s", "mul", ["x", "x"])], label="s = x*x"),
            saved_call(
                [("q", "div", ["u", "u"]), ("m", "mul", ["q", "u"]), ("k", "mul", ["m", "m"])],
                label="q = u/u, m = q*u, k = m*m",
            ),
        ),
    ),
]
