"""topological_order lists nodes only: the leaves (names that are not keys) are not listed."""

from graphcourse.checks import Check
from graphcourse.checks.order_valid import backwards, order_call, order_failure

RULE = "topological_order lists the nodes only: names that are not keys of nodes are leaves, and are not listed."
# Names that sort into a valid order, given last first: only listing the leaves fails here.
TWO = [("p", "mul", ["x", "y"]), ("q", "add", ["p", "y"])]
CHAIN = [("n1", "neg", ["w"]), ("n2", "tanh", ["n1"]), ("n3", "div", ["n2", "w"])]


def judge_no_leaves(check, case, reply):
    return order_failure(case, reply, no_leaves=True)


CHECKS = [
    Check(
        "order_leaves/not_listed",
        "topological_order",
        2,
        RULE,
        "order_leaves",
        cases=(
            order_call(backwards(TWO), label="p = x*y, q = p + y, given q first"),
            order_call(backwards(CHAIN), label="a chain of three nodes on the leaf w, given last first"),
        ),
    ),
]

JUDGES = {"order_leaves": judge_no_leaves}
