"""backward adds one contribution per edge: fan-outs and repeated inputs receive the sum."""

from graphcourse.checks import Check, sweep_call

RULE = (
    "backward adds one contribution per edge: a value read by several nodes, or twice by one node, receives "
    "the sum of all contributions."
)
# Only sums and squares by mul(v, v) appear here: their local slopes have no misconception of their own in the
# zoo, so a wrong slope costs points in local_slopes, not here. The nodes' names sort in listed order (the
# output last), so a sweep that goes by names goes as the right one does: order is reverse_order's business.
# Every number is exact in floating point, and the gradients are judged exactly (judge_exact).
# The lesson's worked example, the diamond, with its output named y: a = x*x, t = a + a, y = t*t.
DIAMOND = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("y", "mul", ["t", "t"])]

CHECKS = [
    Check(
        "fan_out_accumulation/worked_example",
        "backward",
        4,
        RULE,
        "exact",
        cases=(sweep_call(DIAMOND, {"x": 2}, label="the worked example x=2, its output named y (dy/dx = 128)"),),
    ),
    Check(
        "fan_out_accumulation/several_readers",
        "backward",
        3,
        RULE,
        "exact",
        cases=(
            sweep_call(
                [("p", "add", ["a", "b"]), ("q", "add", ["p", "a"]), ("y", "mul", ["q", "q"])],
                {"a": 2.0, "b": 3.0},
                label="y = (a + b + a)**2: a feeds p and q",
            ),
            sweep_call(
                [
                    ("p", "add", ["w", "k"]),
                    ("q", "mul", ["w", "w"]),
                    ("r", "add", ["p", "q"]),
                    ("y", "add", ["r", "w"]),
                ],
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
        "exact",
        cases=(
            sweep_call([("y", "mul", ["x", "x"])], {"x": 3.0}, label="y = x*x"),
            sweep_call([("y", "add", ["x", "x"])], {"x": 3.0}, label="y = x + x"),
            sweep_call(
                [("p", "add", ["a", "b"]), ("q", "mul", ["p", "p"]), ("y", "add", ["q", "q"])],
                {"a": 2, "b": 3},
                label="y = q + q after q = p*p",
            ),
        ),
    ),
]
