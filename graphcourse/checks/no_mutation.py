"""evaluate and backward leave their arguments as they were."""

from graphcourse.examples import ABC_SQUARED
from graphcourse.checks import Check, backward_call, call

KEEP = {"return_args": True}
# The property alone is judged (judge_unchanged): the arguments after the call, and an answer that names every
# node and gets one anchor entry right, so that a constant answer earns nothing. The anchors here are sums.
SUM = ABC_SQUARED[:2]  # z = a*b + c
SUM_AGAIN = SUM + [("L", "add", ["z", "c"])]

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
            backward_call(SUM, {"a": 2, "b": 3, "c": 1}, output="z", label="z = a*b + c", flags=KEEP),
            backward_call(SUM_AGAIN, {"a": 2, "b": 3, "c": 1}, output="L", label="L = z + c after z = a*b + c", flags=KEEP),
        ),
    ),
]
