"""evaluate raises ValueError when a node reads a name that has no value yet."""

from autograder.checks import SQUARE, Check, call

RULE = (
    "evaluate raises ValueError (or a subclass) naming the node and the missing name when a node reads a name "
    "that has no value yet: a graph listed in the wrong order, or a missing leaf."
)

CHECKS = [
    Check(
        "wrong_order_valueerror/wrong_order",
        "evaluate",
        4,
        RULE,
        "valueerror",
        cases=(
            call("evaluate", [SQUARE[1], SQUARE[0]], {"a": 2, "b": 3, "c": 1}, label="z listed before p"),
            call("evaluate", [SQUARE[0], SQUARE[2], SQUARE[1]], {"a": 2, "b": 3, "c": 1}, label="L listed before z"),
        ),
    ),
    Check(
        "wrong_order_valueerror/missing_leaf",
        "evaluate",
        4,
        RULE,
        "valueerror",
        cases=(
            call("evaluate", SQUARE, {"a": 2, "b": 3}, label="leaf c missing"),
            call("evaluate", [("y", "neg", ["u"])], {}, label="no leaves at all"),
        ),
    ),
    Check(
        "wrong_order_valueerror/self_reference",
        "evaluate",
        2,
        RULE,
        "valueerror",
        cases=(call("evaluate", [("y", "add", ["u", "y"])], {"u": 1.0}, label="a node that reads itself"),),
    ),
]
