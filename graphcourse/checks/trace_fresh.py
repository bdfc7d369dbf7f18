"""Each trace records one run on a fresh tape: two traces share nothing, and a branch gives each side its own trace."""

from graphcourse.checks import Case, Check

RULE = (
    "Each call of trace records one run on a fresh tape: two traces share nothing (the second starts again at t0 "
    "and leaves the first as it was), and a branch on a value gives inputs on either side different traces."
)


def twice(first, first_leaves, second, second_leaves, label):
    return Case("trace", (first, first_leaves, second, second_leaves), label=label, driver="tape_trace_twice")


CHECKS = [
    Check(
        "trace_fresh/two_traces",
        "trace",
        1,
        RULE,
        "tape_equal",
        cases=(twice("diamond", {"x": 2.0}, "plus_one", {"y": 5.0}, "trace(diamond, x = 2), then trace(y + 1, y = 5)"),),
    ),
    Check(
        "trace_fresh/branch",
        "trace",
        1,
        RULE,
        "tape_equal",
        cases=(twice("absolute", {"x": 2.0}, "absolute", {"x": -2.0},
                     "fn(x) = x * 1 if x.value >= 0 else -x, traced at x = 2, then at x = -2"),),
    ),
]
