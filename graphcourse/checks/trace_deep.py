"""trace records a chain of 10,000 operations without recursion."""

from graphcourse.checks import Check
from graphcourse.checks.tape_records import tape_call

RULE = "trace records a run of 10,000 operations in a chain without recursion (the sandbox keeps Python's limit of 1,000)."
# The reply is a summary (entries, first, last, output, its value, names with a value): a driver's answer may hold
# little more than its call's names, and the value families judge the entries themselves.

CHECKS = [
    Check(
        "trace_deep/chain",
        "trace",
        2,
        RULE,
        "tape_equal",
        cases=(tape_call("trace", "negations", {"x": 1.5}, "fn(x): 10,000 times x = -x", driver="tape_trace_summary",
                         seconds=5.0),),
    ),
]
