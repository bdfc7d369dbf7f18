"""backward returns every name in values: 1.0 for the output, 0.0 where L does not depend on it."""

from graphcourse.checks import Check, backward_call

RULE = (
    "backward returns a new dict mapping every name in values to dL/d(name), where L is output (default: the "
    "last node); names L does not depend on get 0.0; L's own entry is 1.0."
)
# Sums one step from the leaves: every gradient is 1.0 or 0.0, so only which names are reached, and how the
# output is chosen, decide the answer. Slopes, fan-out and sweep order are other families' business: no name
# is read twice, and no node listed after the output reads it (so assigning instead of adding, which
# would overwrite the output's 1.0 with that node's contribution, is not tripped here). Every number is exact
# in floating point, so the answer is judged exactly (judge_exact): an estimate of the slopes is not a sweep.
TWO_SUMS = [("u", "add", ["a", "b"]), ("L", "add", ["c", "d"])]
LEAVES = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}

CHECKS = [
    Check(
        "backward_every_name/default_output",
        "backward",
        2,
        RULE,
        "exact",
        cases=(backward_call(TWO_SUMS, LEAVES, label="u = a + b, L = c + d, no output given"),),
    ),
    Check(
        "backward_every_name/unreached_zero",
        "backward",
        3,
        RULE,
        "exact",
        cases=(
            backward_call([("y", "add", ["u", "v"])], {"u": 1.0, "v": 2.0, "spare": 2.0}, label="a leaf no node reads"),
            backward_call(
                [("L", "add", ["a", "b"]), ("late", "add", ["c", "d"])],
                {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0},
                output="L",
                label="a node listed after the output L",
            ),
            backward_call(
                [("q", "add", ["c", "e"]), ("y", "add", ["a", "b"])],
                {"a": 1.0, "b": 2.0, "c": 3.0, "e": 4.0},
                label="a node (q) the output never reads",
            ),
        ),
    ),
    Check(
        "backward_every_name/explicit_output",
        "backward",
        2,
        RULE,
        "exact",
        cases=(
            backward_call(TWO_SUMS, LEAVES, output="u", label="u = a + b, L = c + d, with output='u'"),
            backward_call(
                TWO_SUMS + [("M", "add", ["u", "b"])], LEAVES, output="L", label="M = u + b, with output='L'"
            ),
        ),
    ),
]
