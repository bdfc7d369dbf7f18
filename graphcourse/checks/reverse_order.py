"""backward sweeps the graph once, in reverse of the listed order."""

from graphcourse.checks import Check, sweep_call

RULE = "backward sweeps the graph once in reverse of the listed order."
# Chains without fan-out, of sums and of relus away from their kink: a sweep in the wrong order gets them wrong,
# and no other misconception does. A relu of a negative value passes no gradient on, so no constant answer passes.
# Every number is exact in floating point, and the gradients are judged exactly (judge_exact).

CHECKS = [
    Check(
        "reverse_order/branches",
        "backward",
        3,
        RULE,
        "exact",
        cases=(
            sweep_call(
                [("a", "add", ["x", "c"]), ("b", "relu", ["a"]), ("n", "relu", ["k"]), ("L", "add", ["b", "n"])],
                {"x": 0.5, "c": 1.25, "k": -2.0},
                label="two branches summed; a forward sweep gives 0 for x",
            ),
        ),
    ),
    Check(
        "reverse_order/long_chain",
        "backward",
        2,
        RULE,
        "exact",
        cases=(
            sweep_call(
                [("u", "add", ["x", "c"]), ("v", "relu", ["u"]), ("w", "add", ["v", "d"]), ("z", "relu", ["m"]),
                 ("y", "add", ["w", "z"])],
                {"x": 0.5, "c": 0.5, "d": 1.0, "m": -1.0},
                label="x -> u -> v -> w -> y, and a relu that passes nothing on",
            ),
        ),
    ),
]
