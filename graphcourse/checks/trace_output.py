"""trace raises ValueError when fn returns something that is not a Var of its own tape."""

from graphcourse.checks import Case, Check
from graphcourse.checks.tape_records import tape_call

RULE = (
    "trace raises ValueError when fn returns anything that is not a Var of the trace's own tape: "
    "a number, or a Var of another tape."
)

CHECKS = [
    Check(
        "trace_output/not_a_var",
        "trace",
        2,
        RULE,
        "tape_raises",
        cases=(
            tape_call(
                "trace",
                "diamond",
                {"x": 1.5},
                "fn(x): a = x*x; t = a + a; return t*t",
                driver="tape_trace",
                expect="trace_agrees",
            ),
            tape_call("trace", "returns_number", {"x": 1.5}, "fn(x): x * 2; return 3.0", driver="tape_trace"),
            Case("trace", ({"x": 1.5},), label="fn returns a leaf of another tape", driver="tape_trace_foreign"),
        ),
    ),
]
