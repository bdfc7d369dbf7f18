"""topological_order raises ValueError naming a node on the cycle when the records have one (a self-read included)."""

from autograder.grading import properties
from graphcourse.checks import Check
from graphcourse.checks.order_valid import backwards, order_call

RULE = (
    "Records with a cycle (a node reading itself included) make topological_order raise ValueError (or a "
    "subclass) whose message names a node on the cycle."
)
# Acyclic records first, in names that sort into a valid order, given last first: raising for every record
# earns nothing, and neither does handing the records back.
ACYCLIC = order_call(
    backwards([("a", "sq", ["x"]), ("b", "neg", ["a"])]),
    label="b = -a after a = x**2, given b first",
    expect="order_valid",
)
SELF_READ = order_call({"selfish": ["mul", ["selfish", "x"]]}, label="a node that reads itself")
PAIR = order_call({"ping": ["add", ["pong", "x"]], "pong": ["neg", ["ping"]]}, label="ping reads pong, pong reads ping")
# The cycle loop_a -> loop_b -> loop_c, with a node before it that it reads (p) and one after it (after) that
# waits on it, listed first: a message naming the first node left over names after, which is not on the cycle.
BESIDE = order_call(
    {
        "after": ["neg", ["loop_b"]],
        "p": ["mul", ["x", "y"]],
        "loop_a": ["add", ["p", "loop_c"]],
        "loop_b": ["sq", ["loop_a"]],
        "loop_c": ["neg", ["loop_b"]],
    },
    label="a cycle loop_a, loop_b, loop_c beside fine records, and a node after it listed first",
)
WAITING = order_call(
    {
        "tail": ["neg", ["head"]],
        "head": ["add", ["ring_one", "x"]],
        "ring_one": ["neg", ["ring_two"]],
        "ring_two": ["sq", ["ring_one"]],
    },
    label="tail reads head, which reads the cycle ring_one, ring_two",
)


def on_a_cycle(nodes):
    """The nodes that can reach themselves through their inputs (small records only)."""
    found = set()
    for start in nodes:
        todo, seen = [i for i in nodes[start][1] if i in nodes], set()
        while todo:
            name = todo.pop()
            if name == start:
                found.add(start)
                break
            if name not in seen:
                seen.add(name)
                todo.extend(i for i in nodes[name][1] if i in nodes)
    return found


def judge_raises(check, case, reply):
    """A ValueError, whatever its message (naming the node is the next check's rule)."""
    if (
        reply.get("status") == "raised"
        and isinstance(reply.get("error"), dict)
        and reply["error"].get("value_error") is True
    ):
        return None
    return properties.raises_naming(case, reply, [])


def judge_names_a_node(check, case, reply):
    return properties.raises_naming(case, reply, sorted(on_a_cycle(case.args[0])))


CHECKS = [
    Check(
        "order_cycle/raises",
        "topological_order",
        2,
        RULE,
        "order_cycle_raises",
        cases=(ACYCLIC, SELF_READ, PAIR, BESIDE),
    ),
    Check(
        "order_cycle/names_a_node",
        "topological_order",
        2,
        RULE,
        "order_cycle_named",
        cases=(ACYCLIC, SELF_READ, BESIDE, WAITING),
    ),
]

JUDGES = {"order_cycle_raises": judge_raises, "order_cycle_named": judge_names_a_node}
