"""backward sweeps the graph once, in reverse of the listed order."""

from autograder.course.examples import DIAMOND
from autograder.grading.checks import Check, backward_call

RULE = "backward sweeps the graph once in reverse of the listed order."

CHECKS = [
    Check(
        "reverse_order/worked_example",
        "backward",
        3,
        RULE,
        "reference",
        cases=(backward_call(DIAMOND, {"x": 2}, label="the worked example x=2 (a forward sweep gives 0 for x)"),),
    ),
    Check(
        "reverse_order/long_chain",
        "backward",
        2,
        RULE,
        "reference",
        cases=(
            backward_call(
                [("u", "sq", ["x"]), ("v", "neg", ["u"]), ("w", "tanh", ["v"]), ("y", "mul", ["w", "x"])],
                {"x": 0.5},
                label="x -> u -> v -> w -> y, with x read again at the end",
            ),
        ),
    ),
]
