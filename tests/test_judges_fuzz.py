"""Every judge accepts any JSON-like answer and gives a verdict: none raises in the grading process.

Every verdict is also short: no message quotes more than MESSAGE_CHARS of what the learner handed in.

Lists, dicts, huge ints, NaN and inf, nested structures and wrong types are fed to every answer
judge and to every hidden check's judge; each must answer with a message (or a Failure), so one
odd answer costs that cell or check and never makes a notebook unreadable or stops a batch.
"""

import math
from collections.abc import Sized

from hypothesis import given, settings, strategies as st

from autograder.grading import answers
from autograder.grading.compare import MESSAGE_CHARS, Failure
from graphcourse.checks import all_checks
from graphcourse.judges import JUDGES

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(0, 20).map(lambda k: (-1) ** k * 10 ** (300 + 300 * k))  # past float range, past printable digits
    | st.sampled_from([2**63, -0.0])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.integers(1_000, 9_000).map(lambda n: "n" * n)  # a name far too long to quote whole
    | st.sampled_from(["C", "A", "t", "x", "p", "q", "L", "a"])
)
JSON_LIKE = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
ANSWER_CELLS = sorted(answers.answer_cells().values(), key=lambda cell: cell.grade_id)


def small(case):
    """A case whose first argument is sized and short: its judge is fuzzed on it (a bool, a 24,000-node graph is
    not)."""
    return bool(case.args) and isinstance(case.args[0], Sized) and len(case.args[0]) < 100


def first_small_case_per_judge():
    """(check, case) for the first small case of each check under each judge it uses: a judge that only a
    later case names (a ValueError after the values, a second tape) is fuzzed too, in every lesson."""
    found = {}
    for check in all_checks():
        if check.strategy is not None:
            continue
        for case in check.inputs():
            if small(case):
                found.setdefault((check.id, case.expect or check.expect), (check, case))
    return list(found.values())


CASES = first_small_case_per_judge()


@settings(max_examples=150)
@given(data=st.data())
def test_answer_judges_take_any_value(data):
    cell = data.draw(st.sampled_from(ANSWER_CELLS), label="answer cell")
    names = answers.names_of(cell)
    values = {name: data.draw(JSON_LIKE, label=name) for name in names}
    said = answers.verdict(cell, values)
    assert isinstance(said, str) and len(said) <= MESSAGE_CHARS
    if cell.judge not in MANY_RIGHT and values not in right_answers(cell, names):
        assert said, f"{cell.grade_id} accepted {values}, which is not a right answer"


def right_answers(cell, names):
    """The values a cell's judge must accept: its key, or each value of a one_of cell's accept= list."""
    if cell.judge == "one_of":
        ((name, accepted),) = cell.options["accept"].items()
        return [{name: value} for value in accepted]
    return [{name: cell.solution.get(name) for name in names}]


# Judges that accept more than the solution's own value (any valid order, the inputs in any order, any
# fan-out node): a drawn value may be right without being the key, so only their messages are held here.
MANY_RIGHT = {"order", "inputs_of_q", "fan_out_node"}


@settings(max_examples=150)
@given(data=st.data())
def test_check_judges_take_any_reply(data):
    check, case = data.draw(st.sampled_from(CASES), label="check")
    reply = data.draw(
        st.fixed_dictionaries(
            {
                "status": st.sampled_from(["ok", "raised", "missing", "timeout", "died", "unsendable"]),
                "value": JSON_LIKE,
            },
            optional={
                "args_after": JSON_LIKE,
                "error": st.dictionaries(st.sampled_from(["type", "message", "where", "value_error"]), JSON_LIKE),
                "seconds": st.floats(allow_nan=True),
            },
        ),
        label="reply",
    )
    judge = JUDGES[case.expect or check.expect]
    judged = judge.__wrapped__(check, case, reply)  # the judge itself: never_raises would hide what it trips over
    assert judged is None or isinstance(judged, Failure)
    if judged is not None:
        assert isinstance(judged.summary, str) and judged.summary.strip() and len(judged.summary) <= MESSAGE_CHARS


def test_the_cases_that_broke_a_notebook_are_judged():
    """CHOICE = ["C"] and a huge ASSIGN_X each cost their own cell, with a message."""
    cells = answers.answer_cells()
    choice = next(c for c in cells.values() if c.judge == "choice")
    assert "CHOICE" in answers.verdict(choice, {"CHOICE": ["C"]})
    assign = next(c for c in cells.values() if c.judge == "assign_instead_of_add")
    said = answers.verdict(assign, {"ASSIGN_X": 10**5000, "FIRST_WRONG": "t"})
    assert "ASSIGN_X should be a number" in said and len(said) < 400
    assert answers.verdict(assign, {"ASSIGN_X": math.nan, "FIRST_WRONG": ["t"]})


def test_every_judge_of_the_hidden_checks_is_fuzzed():
    """Each judge a check's input names is in CASES, in every lesson; only the timed checks run on big inputs
    alone (their judge is the CPU time, measured by the runner), and property checks draw their own."""
    named = {case.expect or check.expect for check in all_checks() if check.strategy is None for case in check.inputs()}
    fuzzed = {case.expect or check.expect for check, case in CASES}
    large_only = {
        "linear_time",
        "carried_back",
    }  # carried_back is fuzzed inside carried_back_unchanged, on small inputs
    assert named - fuzzed <= large_only, f"judges no small case reaches: {sorted(named - fuzzed - large_only)}"
