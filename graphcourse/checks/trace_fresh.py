"""Each trace records one run on a fresh tape: two traces share nothing, and a branch gives each side its own trace."""

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Case, Check
from graphcourse.checks.trace_agrees import as_trace, not_a_trace, run_failure

RULE = (
    "Each call of trace records one run on a fresh tape: two traces share nothing (the second starts again at t0 "
    "and leaves the first as it was), and a branch on a value gives inputs on either side different traces."
)


def twice(first, first_leaves, second, second_leaves, label):
    return Case("trace", (first, first_leaves, second, second_leaves), label=label, driver="tape_trace_twice")


def judge_fresh(check, case, reply):
    """Both traces record their own runs (run_failure), the first is left as it was, and the second holds nothing
    of the first: no leaf of it, names from t0 again; the same program on either side of a branch, two traces."""
    failure = no_answer(case, reply)
    if failure:
        return failure
    got = reply.get("value")
    if type(got) is not list or len(got) != 3:
        return not_a_trace(case, got)
    parts = [as_trace(one) for one in got]
    if None in parts:
        return not_a_trace(case, got[parts.index(None)])
    seen, second, again = parts
    first_program, first_leaves, second_program, second_leaves = case.args
    failure = run_failure(case, seen, first_program, first_leaves, "first trace") or run_failure(
        case, second, second_program, second_leaves, "second trace"
    )
    if failure:
        return failure
    if again != seen:
        return Failure(
            case,
            f"the second trace changed the first: its graph was {short(seen[0], 200)}, and is now "
            f"{short(again[0], 200)}",
        )
    stray = [name for name in first_leaves if name not in second_leaves and name in second[1]]
    if stray:
        return Failure(case, f"the second trace holds {stray[0]!r}, a leaf of the first: two traces share nothing")
    if second[0] and "t0" not in {name for name, _op, _inputs in second[0]}:
        return Failure(
            case,
            f"the second trace should name its entries from t0 again, but they are "
            f"{short([name for name, _op, _inputs in second[0]])}",
        )
    if first_program == second_program and [e[1:] for e in seen[0]] == [e[1:] for e in second[0]]:
        return Failure(case, f"the two runs took different paths, but both traces record {short(seen[0], 200)}")
    return None


CHECKS = [
    Check(
        "trace_fresh/two_traces",
        "trace",
        1,
        RULE,
        "trace_fresh",
        cases=(
            twice("diamond", {"x": 2.0}, "plus_one", {"y": 5.0}, "trace(diamond, x = 2), then trace(y + 1, y = 5)"),
        ),
    ),
    Check(
        "trace_fresh/branch",
        "trace",
        1,
        RULE,
        "trace_fresh",
        cases=(
            twice(
                "absolute",
                {"x": 2.0},
                "absolute",
                {"x": -2.0},
                "fn(x) = x * 1 if x.value >= 0 else -x, traced at x = 2, then at x = -2",
            ),
        ),
    ),
]

JUDGES = {"trace_fresh": judge_fresh}
