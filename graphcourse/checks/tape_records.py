"""Every operation on Vars appends exactly one entry, ("t<k>", op, inputs) with the inputs left operand first, and
returns its Var."""

import json
from collections import Counter

from autograder.grading import properties
from autograder.grading.compare import Failure, no_answer, per_case, short
from graphcourse.checks import Case, Check

RULE = (
    "Every operation on Vars appends exactly one entry to their tape, the k-th named t<k>, with its op and its "
    "inputs left operand first, records its value, and returns a new Var of that name and value; Vars of two "
    "tapes do not mix (ValueError)."
)
TOLERANCE = 1e-9  # values are compared as numbers: 2 and 2.0 are the same value


def tape_call(fn, program, leaves, label, driver="tape_run", **extra):
    """A Case running a public program of graphcourse/drivers/tape.py against the learner's module."""
    return Case(fn, (program, leaves), label=label, driver=driver, **extra)


def _expected(case):
    from graphcourse.judges import driven_answer  # here, not at import: judges.py imports the families

    return driven_answer(case)


expected = per_case(_expected)


def entry_key(entry):
    return json.dumps(entry, sort_keys=True)


def shown(key):
    """An entry_key as the entry reads in Python: ('t0', 'mul', ['x', 'x'])."""
    return short(tuple(json.loads(key)), 160)


def run_parts(case, reply):
    """(got, want, None) for a tape_run reply, each [graph, values, name, value], or (None, None, the Failure)."""
    failure = no_answer(case, reply)
    if failure:
        return None, None, failure
    got, want = reply.get("value"), expected(case)
    if (
        type(got) is not list
        or len(got) != 4
        or type(got[0]) is not list
        or not all(type(e) is list for e in got[0])
        or type(got[1]) is not dict
    ):
        return (
            None,
            None,
            Failure(
                case,
                f"the program's tape could not be read as a graph of (name, op, inputs) and a "
                f"dict of values: {short(got)}",
            ),
        )
    return got, want, None


def tape_failure(case, reply):
    """None when the tape holds the expected entries (in any order: recording order is tape_order's business),
    values, and result; else the Failure."""
    got, want, failure = run_parts(case, reply)
    if failure:
        return failure
    entries, wanted = Counter(map(entry_key, got[0])), Counter(map(entry_key, want[0]))
    if entries != wanted:
        missing, extra = list((wanted - entries).elements()), list((entries - wanted).elements())
        said = f"it lacks {shown(missing[0])}" if missing else f"it also holds {shown(extra[0])}"
        return Failure(
            case,
            f"the tape should hold the {len(want[0])} entries {short(want[0], 300)}, but {said} "
            f"(its graph: {short(got[0], 200)})",
        )
    if not properties.same(got[1], want[1], TOLERANCE):
        return Failure(case, f"the tape's values should be {short(want[1], 240)}, got {short(got[1], 240)}")
    if got[2] != want[2] or not properties.same(got[3], want[3], TOLERANCE):
        return Failure(
            case,
            f"the program's result should be the Var {want[2]!r} holding {want[3]!r}, got "
            f"{short(got[2])} holding {short(got[3])}",
        )
    return None


def judge_tape(check, case, reply):
    return tape_failure(case, reply)


def judge_equal(check, case, reply):
    """The driver's answer equals the reference's, numbers within TOLERANCE."""
    return properties.equal(case, reply, expected(case), TOLERANCE)


def judge_raises(check, case, reply):
    """A ValueError, whatever its message."""
    if (
        reply.get("status") == "raised"
        and isinstance(reply.get("error"), dict)
        and reply["error"].get("value_error") is True
    ):
        return None
    return properties.raises_naming(case, reply, [])


LEAVES = {"x": 0.75, "y": -1.5}
# Every arithmetic operator of Var, the reflected forms called as x's own methods (Python calls them so for 2 + x).
OPERATORS = {
    "__add__": "x + y",
    "__sub__": "x - y",
    "__mul__": "x * y",
    "__truediv__": "x / y",
    "__radd__": "x.__radd__(y), as for y + x",
    "__rsub__": "x.__rsub__(y), as for y - x",
    "__rmul__": "x.__rmul__(y), as for y * x",
    "__rtruediv__": "x.__rtruediv__(y), as for y / x",
}

CHECKS = [
    Check(
        "tape_records/every_op",
        "Var",
        4,
        RULE,
        "tape_entries",
        cases=(
            tape_call("Var", "every_binary_op", LEAVES, "x + y, x - y, x * y, y / x at x = 0.75, y = -1.5"),
            tape_call("Var", "every_unary_op", {"x": -0.5, "y": 0.25}, "-x, x.sq(), y.tanh(), x.relu() at x = -0.5"),
            tape_call("Var", "three_leaves", {"a": 2.0, "b": 3.0, "c": -1.0}, "a * b, b - c, c / a"),
        ),
    ),
    Check(
        "tape_records/two_tapes",
        "Var",
        1,
        RULE,
        "tape_raises",
        cases=(
            Case("Var", (True,), label="x + y, both leaves of one tape", driver="tape_mixed", expect="tape_equal"),
            Case("Var", (False,), label="x + y, x a leaf of one tape and y of another", driver="tape_mixed"),
            *(
                Case(
                    "Var",
                    (method,),
                    label=f"{written}, x a leaf of one tape and y of another (which both hold a leaf named y)",
                    driver="tape_operator_across",
                )
                for method, written in OPERATORS.items()
            ),
        ),
    ),
]

JUDGES = {"tape_entries": judge_tape, "tape_equal": judge_equal, "tape_raises": judge_raises}
