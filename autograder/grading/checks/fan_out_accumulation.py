"""backward adds one contribution per edge: fan-outs and repeated inputs receive the sum."""

from autograder.course.examples import DIAMOND, ABA_SQUARED, ABC_SQUARED
from autograder.grading.checks import Check, backward_call

RULE = (
    "backward adds one contribution per edge: a value read by several nodes, or twice by one node, receives "
    "the sum of all contributions."
)

CHECKS = [
    Check(
        "fan_out_accumulation/worked_example",
        "backward",
        4,
        RULE,
        "reference",
        cases=(backward_call(DIAMOND, {"x": 2}, label="the worked example x=2 (dL/dx = 128)"),),
    ),
    Check(
        "fan_out_accumulation/several_readers",
        "backward",
        3,
        RULE,
        "reference",
        cases=(
            backward_call(ABA_SQUARED, {"a": 2.0, "b": 3.0}, label="L = (a*b + a)**2: a feeds p and q"),
            backward_call(
                [("u", "neg", ["w"]), ("v", "sq", ["w"]), ("s", "add", ["u", "v"]), ("y", "mul", ["s", "w"])],
                {"w": 1.5},
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
            backward_call([("y", "mul", ["x", "x"])], {"x": 3.0}, label="y = x*x"),
            backward_call([("y", "add", ["x", "x"])], {"x": 3.0}, label="y = x + x"),
            backward_call(ABC_SQUARED + [("M", "mul", ["L", "L"])], {"a": 2, "b": 3, "c": 1}, label="M = L*L after L = (a*b+c)**2"),
        ),
    ),
]
