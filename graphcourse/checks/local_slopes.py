"""backward uses the right local slope for every op, one op at a time."""

import math

from graphcourse.checks import Check, sweep_call

RULE = (
    "backward uses the local slopes of every op (tanh's slope is 1 - out**2, read from the node's own value; "
    "relu's slope is 0 at and below 0)."
)


# One node each, at small dyadic numbers: every slope but tanh's is exact in floating point, and judged exactly
# (judge_exact); tanh's is judged within the usual tolerance.


def one_op(op, *values):
    names = ["u", "v"][: len(values)]
    return sweep_call([("y", op, names)], dict(zip(names, values)), label=f"y = {op}({', '.join(names)}) at {values}")


CHECKS = [
    Check(
        "local_slopes/add_sub", "backward", 1, RULE, "exact", cases=(one_op("add", 3.0, -2.0), one_op("sub", 3.0, -2.0))
    ),
    Check("local_slopes/mul", "backward", 1, RULE, "exact", cases=(one_op("mul", 3.0, -2.0),)),
    Check(
        "local_slopes/div", "backward", 1.5, RULE, "exact", cases=(one_op("div", 3.0, -2.0), one_op("div", -1.0, 0.5))
    ),
    Check("local_slopes/sq_neg", "backward", 1, RULE, "exact", cases=(one_op("sq", -1.5), one_op("neg", 2.0))),
    Check(
        "local_slopes/tanh",
        "backward",
        2,
        RULE,
        "reference",
        cases=(one_op("tanh", 0.5), one_op("tanh", -1.25), one_op("tanh", math.log(3.0))),
    ),
    Check(
        "local_slopes/relu",
        "backward",
        1.5,
        RULE,
        "exact",
        cases=(one_op("relu", 2.0), one_op("relu", -2.0), one_op("relu", 0.0)),
    ),
]
