"""evaluate raises ValueError, naming the node and the missing name, when a node reads a name with no value yet."""

from graphcourse.checks import Check, call
from graphcourse.examples import ABC_SQUARED

RULE = (
    "evaluate raises ValueError (or a subclass) naming the node and the missing name when a node reads a name "
    "nothing has given a value to: a node listed before one it reads, or a leaf left out of leaves."
)
LEAVES = {"a": 2, "b": 3, "c": 1}


def in_order(graph, leaves, label):
    """A correctly listed graph first: raising for every graph earns nothing (which values are reported is
    evaluate_values' business, so this case asks only for an answer naming every node, right at the first)."""
    return call("evaluate", graph, leaves, label=label, expect="returns")


CHECKS = [
    Check(
        "wrong_order_valueerror/wrong_order",
        "evaluate",
        3,
        RULE,
        "valueerror",
        cases=(
            in_order(ABC_SQUARED, LEAVES, "L = (a*b + c)**2 listed in order"),
            call("evaluate", [ABC_SQUARED[1], ABC_SQUARED[0]], LEAVES, label="z listed before p"),
            call("evaluate", [ABC_SQUARED[0], ABC_SQUARED[2], ABC_SQUARED[1]], LEAVES, label="L listed before z"),
        ),
    ),
    Check(
        "wrong_order_valueerror/missing_leaf",
        "evaluate",
        3,
        RULE,
        "valueerror",
        cases=(
            in_order(ABC_SQUARED, LEAVES, "L = (a*b + c)**2 with every leaf given"),
            call("evaluate", ABC_SQUARED, {"a": 2, "b": 3}, label="leaf c missing"),
            call("evaluate", [("y", "neg", ["u"])], {}, label="no leaves at all"),
        ),
    ),
    Check(
        "wrong_order_valueerror/self_reference",
        "evaluate",
        2,
        RULE,
        "valueerror",
        cases=(
            in_order([("y", "add", ["u", "u"])], {"u": 1.0}, "y = u + u"),
            call("evaluate", [("y", "add", ["u", "y"])], {"u": 1.0}, label="a node that reads itself"),
        ),
    ),
    Check(
        "wrong_order_valueerror/names_node_and_input",
        "evaluate",
        2,
        RULE,
        "valueerror_named",
        cases=(
            call("evaluate", [ABC_SQUARED[1], ABC_SQUARED[0]], LEAVES, label="z listed before p"),
            call("evaluate", ABC_SQUARED, {"a": 2, "b": 3}, label="leaf c missing"),
        ),
    ),
]
