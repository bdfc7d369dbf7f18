"""evaluate returns the value of every leaf and every node, computed with OPS."""

from graphcourse.checks import Check, call
from graphcourse.examples import ABA_SQUARED, ABC_SQUARED, DIAMOND

RULE = "evaluate(graph, leaves) returns a new dict with the value of every leaf and every node, computed with OPS."

CHECKS = [
    Check(
        "evaluate_values/worked_example",
        "evaluate",
        3,
        RULE,
        "reference",
        cases=(
            call("evaluate", ABC_SQUARED[:2], {"a": 2, "b": 3, "c": 1}, label="z = a*b + c at a=2, b=3, c=1"),
            call("evaluate", ABC_SQUARED, {"a": 2, "b": 3, "c": 1}, label="L = (a*b + c)**2 at a=2, b=3, c=1"),
            call("evaluate", DIAMOND, {"x": 2}, label="the worked example x=2"),
        ),
    ),
    Check(
        "evaluate_values/includes_leaves",
        "evaluate",
        5,
        RULE,
        "reference",
        cases=(
            call("evaluate", ABA_SQUARED, {"a": 1.5, "b": -2.0}, label="L = (a*b + a)**2"),
            call("evaluate", [("y", "neg", ["u"])], {"u": 3.0, "spare": 7.0}, label="a leaf no node reads"),
        ),
    ),
    Check(
        "evaluate_values/every_op",
        "evaluate",
        4,
        RULE,
        "reference",
        cases=(
            call("evaluate", [("y", "sub", ["u", "v"])], {"u": 3.0, "v": 5.0}, label="y = u - v"),
            call("evaluate", [("y", "div", ["u", "v"])], {"u": 3.0, "v": 4.0}, label="y = u / v"),
            call("evaluate", [("y", "tanh", ["u"])], {"u": 0.5}, label="y = tanh(u)"),
            call("evaluate", [("y", "relu", ["u"])], {"u": -1.5}, label="y = relu(u), u < 0"),
            call("evaluate", [("y", "relu", ["u"])], {"u": 2.5}, label="y = relu(u), u > 0"),
            call(
                "evaluate",
                [("s", "sq", ["u"]), ("n", "neg", ["s"]), ("d", "div", ["n", "v"]), ("y", "sub", ["v", "d"])],
                {"u": 1.5, "v": -2.0},
                label="a chain of sq, neg, div and sub",
            ),
        ),
    ),
    Check(
        "evaluate_values/relu_small_positive",
        "evaluate",
        1,
        RULE,
        "reference",
        cases=(
            call("evaluate", [("y", "relu", ["u"])], {"u": 0.5}, label="y = relu(u), 0 < u < 1"),
            call("evaluate", [("y", "relu", ["u"])], {"u": 1.0}, label="y = relu(u), u = 1"),
        ),
    ),
]
