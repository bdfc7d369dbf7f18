"""inputs_of lists a node's immediate inputs: in order, duplicates kept, [] for leaves."""

from graphcourse.checks import Check, call
from graphcourse.examples import ABA_SQUARED, DIAMOND

RULE = (
    "inputs_of(graph, name) returns the node's immediate inputs as a new list, in the order listed, duplicates "
    "kept; [] for a leaf or a name not in the graph."
)

CHECKS = [
    Check(
        "inputs_of_edges/in_order",
        "inputs_of",
        3,
        RULE,
        "reference",
        cases=(
            call("inputs_of", ABA_SQUARED, "q", label="q = p + a"),
            call("inputs_of", [("y", "sub", ["v", "u"])], "y", label="y = v - u (order matters)"),
        ),
    ),
    Check(
        "inputs_of_edges/duplicates_kept",
        "inputs_of",
        3,
        RULE,
        "reference",
        cases=(
            call("inputs_of", DIAMOND, "a", label="a = x*x"),
            call("inputs_of", DIAMOND, "t", label="t = a + a"),
        ),
    ),
    Check(
        "inputs_of_edges/leaf_is_empty",
        "inputs_of",
        2,
        RULE,
        "reference",
        cases=(
            call("inputs_of", ABA_SQUARED, "a", label="the leaf a"),
            call("inputs_of", ABA_SQUARED, "nowhere", label="a name not in the graph"),
            call("inputs_of", ABA_SQUARED, "L", label="L = q**2 (so [] for everything is wrong)"),
        ),
    ),
    Check(
        "inputs_of_edges/new_list",
        "inputs_of",
        2,
        RULE,
        "unchanged",
        cases=(
            call(
                "inputs_of",
                ABA_SQUARED,
                "p",
                label="p = a*b, then the caller appends to the answer",
                flags={"mutate_result": True},
            ),
        ),
    ),
]
