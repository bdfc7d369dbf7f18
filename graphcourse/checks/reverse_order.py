"""backward sweeps the graph once, in reverse of the listed order."""

from graphcourse.checks import Check, sweep_call

RULE = "backward sweeps the graph once in reverse of the listed order."
# Chains without fan-out, of sums and of relus of positive values: every op's slope there is 1, whatever a
# misconception about slopes says of relu at or below its kink, of sub's second input or of mul, so only the order
# of the sweep decides the answer. A sweep in the wrong order reaches a node before its readers have passed its
# gradient on, and gives 0 below it. No value is 0 or 1, so neither zeros nor the values handed back pass.
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
                {"x": 0.5, "c": 1.25, "k": 2.0},
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
                [
                    ("u", "add", ["x", "c"]),
                    ("v", "relu", ["u"]),
                    ("w", "add", ["v", "d"]),
                    ("z", "relu", ["m"]),
                    ("y", "add", ["w", "z"]),
                ],
                {"x": 0.5, "c": 0.75, "d": 0.25, "m": 1.5},
                label="x -> u -> v -> w -> y, and a second branch z = relu(m)",
            ),
        ),
    ),
]
