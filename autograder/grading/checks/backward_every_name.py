"""backward returns every name in values: 1.0 for the output, 0.0 where L does not depend on it."""

from autograder.course.examples import DIAMOND, ABC_SQUARED
from autograder.grading.checks import Check, backward_call

RULE = (
    "backward returns a new dict mapping every name in values to dL/d(name), where L is output (default: the "
    "last node); names L does not depend on get 0.0; L's own entry is 1.0."
)

AFTER = ABC_SQUARED + [("late", "neg", ["L"])]

CHECKS = [
    Check(
        "backward_every_name/default_output",
        "backward",
        2,
        RULE,
        "reference",
        cases=(backward_call(ABC_SQUARED, {"a": 2, "b": 3, "c": 1}, label="L = (a*b + c)**2 with no output given"),),
    ),
    Check(
        "backward_every_name/unreached_zero",
        "backward",
        3,
        RULE,
        "reference",
        cases=(
            backward_call([("y", "neg", ["u"])], {"u": 1.0, "spare": 2.0}, label="a leaf no node reads"),
            backward_call(AFTER, {"a": 2, "b": 3, "c": 1}, output="L", label="a node listed after the output L"),
            backward_call(
                [("p", "mul", ["a", "b"]), ("q", "neg", ["c"]), ("y", "add", ["p", "a"])],
                {"a": 1.0, "b": 2.0, "c": 3.0},
                label="a node (q) the output never reads",
            ),
        ),
    ),
    Check(
        "backward_every_name/explicit_output",
        "backward",
        2,
        RULE,
        "reference",
        cases=(
            backward_call(DIAMOND, {"x": 2}, output="t", label="the worked example with output='t'"),
            backward_call(ABC_SQUARED, {"a": 2, "b": 3, "c": 1}, output="p", label="L = (a*b + c)**2 with output='p'"),
        ),
    ),
]
