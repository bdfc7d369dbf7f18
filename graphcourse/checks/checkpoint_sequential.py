"""backward_checkpointed raises ValueError naming the node when a node reads anything but leaves and the node just
before it."""

from autograder.grading import properties
from graphcourse.checks import Check
from graphcourse.checks.checkpoint_gradients import checkpoint_call

RULE = (
    "backward_checkpointed takes a sequential graph: a node that reads anything but leaves and the node listed just "
    "before it makes it raise ValueError (or a subclass) whose message names that node."
)


def first_offender(case):
    """The first node, in graph order, that reads a name that is neither a leaf nor the node just before it."""
    graph, leaves = case.args[0], case.args[1]
    for position, (name, _op, inputs) in enumerate(graph):
        before = graph[position - 1][0] if position else None
        if any(read != before and read not in leaves for read in inputs):
            return name
    return None


def judge_sequential(check, case, reply):
    return properties.raises_naming(case, reply, [first_offender(case)])


# A sequential graph first, judged on its gradients: raising on every graph earns nothing.
CHECKS = [
    Check(
        "checkpoint_sequential/valueerror",
        "backward_checkpointed",
        2,
        RULE,
        "checkpoint_sequential",
        cases=(
            checkpoint_call(
                [("a", "sq", ["x"]), ("b", "mul", ["a", "y"]), ("c", "sub", ["b", "x"])],
                {"x": 1.5, "y": -2.0},
                2,
                label="a = x**2, b = a*y, c = b - x: sequential",
                expect="checkpoint_gradients",
            ),
            checkpoint_call(
                [("a", "sq", ["x"]), ("b", "sq", ["a"]), ("skip", "mul", ["b", "a"])],
                {"x": 2.0},
                2,
                label="skip reads a, two nodes back",
            ),
            checkpoint_call(
                [("a", "neg", ["x"]), ("early", "add", ["a", "late"]), ("late", "sq", ["early"])],
                {"x": 2.0},
                1,
                label="early reads late, listed after it",
            ),
            checkpoint_call(
                [("u", "neg", ["x"]), ("loop", "mul", ["loop", "u"])], {"x": 2.0}, 3, label="loop reads itself"
            ),
            checkpoint_call(
                [("h", "tanh", ["x"]), ("a", "add", ["h", "ghost"])],
                {"x": 0.5},
                2,
                label="a reads ghost, neither a leaf nor a node",
            ),
        ),
    ),
]

JUDGES = {"checkpoint_sequential": judge_sequential}
