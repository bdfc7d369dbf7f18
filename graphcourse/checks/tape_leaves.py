"""A new Tape is empty; leaf(name, value) puts the value on that tape alone and returns its Var; a name twice raises
ValueError."""

from graphcourse.checks import Case, Check

RULE = (
    "Tape() starts with an empty graph and no values; leaf(name, value) adds name to that tape's values alone "
    "(no entry) and returns a Var of that name and value; a name already on the tape raises ValueError."
)


def leaves_call(pairs, label, **extra):
    return Case("Tape", (pairs,), label=label, driver="tape_leaves", **extra)


CHECKS = [
    Check(
        "tape_leaves/leaves",
        "Tape",
        3,
        RULE,
        "tape_equal",
        cases=(
            leaves_call([["x", 2.0]], "a new tape, then leaf('x', 2.0)"),
            leaves_call([["a", 2.5], ["b", -1], ["c", 0.0]], "a new tape, then three leaves a, b and c"),
        ),
    ),
    Check(
        "tape_leaves/name_twice",
        "Tape",
        1,
        RULE,
        "tape_raises",
        cases=(
            leaves_call([["x", 1.0], ["y", 2.0]], "leaves x and y", expect="tape_equal"),
            leaves_call([["x", 1.0], ["x", 2.0]], "leaf('x', ...) twice on one tape"),
        ),
    ),
    Check(
        "tape_leaves/two_tapes",
        "Tape",
        2,
        RULE,
        "tape_equal",
        cases=(
            Case(
                "Tape",
                ([["x", 1.0], ["y", 2.0]], [["x", 5.0], ["z", 6.0]]),
                label="two tapes, given leaves in turn",
                driver="tape_two_tapes",
            ),
        ),
    ),
]
