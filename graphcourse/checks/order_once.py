"""topological_order lists every node exactly once, however many times other nodes read it."""

from graphcourse.checks import Check
from graphcourse.checks.order_valid import backwards, order_call, order_failure

RULE = "topological_order lists every node exactly once, even a node that another node reads twice (mul t t)."
# Names that sort into a valid order, given last first: only listing a node twice fails here.
DIAMOND = [("a", "mul", ["x", "x"]), ("b", "add", ["a", "a"]), ("c", "mul", ["b", "b"])]
FAN_OUT = [("a", "sq", ["x"]), ("b", "neg", ["a"]), ("c", "sub", ["a", "b"]), ("d", "add", ["c", "c"])]


def judge_once(check, case, reply):
    return order_failure(case, reply, once=True)


CHECKS = [
    Check(
        "order_once/read_twice",
        "topological_order",
        2,
        RULE,
        "order_once",
        cases=(
            order_call(backwards(DIAMOND), label="a = x*x, b = a + a, c = b*b, given c first"),
            order_call(backwards(FAN_OUT), label="a read by b and c, c read twice by d, given d first"),
        ),
    ),
]

JUDGES = {"order_once": judge_once}
