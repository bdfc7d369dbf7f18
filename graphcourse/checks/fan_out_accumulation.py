"""backward adds one contribution per edge: fan-outs and repeated inputs receive the sum."""

from graphcourse.examples import DIAMOND
from graphcourse.checks import Check, sweep_call

RULE = (
    "backward adds one contribution per edge: a value read by several nodes, or twice by one node, receives "
    "the sum of all contributions."
)
# Only sums and squares by mul(v, v) appear here: their local slopes have no misconception of their own in the
# zoo, so a wrong slope costs points in local_slopes, not here.

CHECKS = [
    Check(
        "fan_out_accumulation/worked_example",
        "backward",
        4,
        RULE,
        "reference",
        cases=(sweep_call(DIAMOND, {"x": 2}, label="the worked example x=2 (dL/dx = 128)"),),
    ),
    Check(
        "fan_out_accumulation/several_readers",
        "backward",
        3,
        RULE,
        "reference",
        cases=(
            sweep_call(
                [("p", "add", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "mul", ["q", "q"])],
                {"a": 2.0, "b": 3.0},
                label="L = (a + b + a)**2: a feeds p and q",
            ),
            sweep_call(
                [("u", "add", ["w", "k"]), ("v", "mul", ["w", "w"]), ("s", "add", ["u", "v"]), ("y", "add", ["s", "w"])],
                {"w": 1.5, "k": 0.5},
                label="w read by three different nodes",
            ),
        ),
    ),
    Check(
        "fan_out_accumulation/repeated_input",
        "backward",
        3,
        RULE,
        "reference",
        cases=(
            sweep_call([("y", "mul", ["x", "x"])], {"x": 3.0}, label="y = x*x"),
            sweep_call([("y", "add", ["x", "x"])], {"x": 3.0}, label="y = x + x"),
            sweep_call(
                [("z", "add", ["a", "b"]), ("L", "mul", ["z", "z"]), ("M", "add", ["L", "L"])],
                {"a": 2, "b": 3},
                label="M = L + L after L = z*z",
            ),
        ),
    ),
]
