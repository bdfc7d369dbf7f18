"""A name that several edges read gets the sum of their contributions, as add nodes of graph2."""

from graphcourse.checks import Check
from graphcourse.checks.gradient_graph_first import symbolic_call

RULE = (
    "A name read along several edges (by several nodes, or twice by one) gets the sum of the contributions: each "
    "contribution after the first appends an add node, and nothing already appended is changed."
)

# No product of two different names and no tanh: only the sums of contributions are in question here.
CHECKS = [
    Check(
        "gradient_graph_fan_out/sums",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_first",
        cases=(
            symbolic_call(
                [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])],
                label="the diamond a = x*x, t = a + a, L = t*t: x, a and t each read twice",
            ),
            symbolic_call(
                [("h", "neg", ["x"]), ("s", "sq", ["x"]), ("q", "add", ["h", "s"]), ("L", "sub", ["q", "x"])],
                label="h = -x, s = x**2, q = h + s, L = q - x: x read by three nodes",
            ),
            symbolic_call(
                [
                    ("u", "add", ["x", "y"]),
                    ("v", "sub", ["u", "y"]),
                    ("w", "add", ["v", "u"]),
                    ("L", "mul", ["w", "w"]),
                ],
                label="u = x + y, v = u - y, w = v + u, L = w*w",
            ),
        ),
    ),
]
