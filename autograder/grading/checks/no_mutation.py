"""evaluate, inputs_of and backward leave their arguments as they were."""

from autograder.course.examples import DIAMOND, ABC_SQUARED
from autograder.grading.checks import Check, backward_call, call

KEEP = {"return_args": True}

CHECKS = [
    Check(
        "no_mutation/evaluate",
        "evaluate",
        2,
        "evaluate does not modify leaves or graph.",
        "unchanged",
        cases=(call("evaluate", ABC_SQUARED, {"a": 2, "b": 3, "c": 1}, label="L = (a*b + c)**2", flags=KEEP),),
    ),
    Check(
        "no_mutation/backward",
        "backward",
        2,
        "backward does not modify its arguments.",
        "unchanged",
        cases=(
            backward_call(DIAMOND, {"x": 2}, label="the worked example x=2", flags=KEEP),
            backward_call(ABC_SQUARED, {"a": 2, "b": 3, "c": 1}, output="z", label="L = (a*b + c)**2, output='z'", flags=KEEP),
        ),
    ),
]
