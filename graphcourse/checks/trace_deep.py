"""trace records a chain of 10,000 operations without recursion."""

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Check
from graphcourse.checks.tape_records import expected, tape_call
from graphcourse.checks.trace_agrees import is_close

RULE = (
    "trace records a run of 10,000 operations in a chain without recursion (the sandbox keeps Python's limit of 1,000)."
)
# The reply is a summary (entries, first, last, output, its value, names with a value): a driver's answer may hold
# little more than its call's names. Judged: one entry per operation and the output's value; the entries themselves
# are the Var families' business.


def judge_deep(check, case, reply):
    failure = no_answer(case, reply)
    if failure:
        return failure
    got, want = reply.get("value"), expected(case)
    if type(got) is not list or len(got) != len(want):
        return Failure(case, f"trace's answer could not be read as (graph, values, output): {short(got)}")
    if got[0] != want[0]:
        return Failure(case, f"the run made {want[0]:,} operations, but the trace has {short(got[0])} entries")
    if not is_close(got[4], want[4]):
        return Failure(
            case, f"fn returns a Var holding {want[4]!r}, but the trace's output {short(got[3])} holds {short(got[4])}"
        )
    return None


CHECKS = [
    Check(
        "trace_deep/chain",
        "trace",
        2,
        RULE,
        "trace_deep",
        cases=(
            tape_call(
                "trace",
                "negations",
                {"x": 1.5},
                "fn(x): 9,999 times x = -x, then x * 2",
                driver="tape_trace_summary",
                seconds=5.0,
            ),
        ),
    ),
]

JUDGES = {"trace_deep": judge_deep}
