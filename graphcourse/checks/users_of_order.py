"""users_of lists the readers in graph order, not sorted, and [] when nothing reads the name."""

from graphcourse.checks import Check, call
from graphcourse.examples import ABA_SQUARED

RULE = "users_of(graph, name) returns the names of the nodes that read name, in graph order; [] if none."

SHUFFLED = [("z", "neg", ["x"]), ("m", "sq", ["x"]), ("b", "add", ["z", "x"]), ("q", "mul", ["m", "b"])]

CHECKS = [
    Check(
        "users_of_order/graph_order",
        "users_of",
        4,
        RULE,
        "reference",
        cases=(
            call("users_of", ABA_SQUARED, "a", label="a feeds p and q"),
            call("users_of", SHUFFLED, "x", label="x read by z, m and b (not alphabetical)"),
        ),
    ),
    Check(
        "users_of_order/no_users",
        "users_of",
        3,
        RULE,
        "reference",
        cases=(
            call("users_of", ABA_SQUARED, "L", label="the output L"),
            call("users_of", ABA_SQUARED, "nowhere", label="a name not in the graph"),
            call("users_of", ABA_SQUARED, "p", label="p, read by q alone (so [] for everything is wrong)"),
        ),
    ),
]
