"""backward_checkpointed's gradients are lesson 2's backward's, to 1e-9 relative, for every leaf and every choice of
every."""

import math

from autograder.grading.compare import Failure, is_number, no_answer, per_case, short
from exercises.strategies import st  # Hypothesis is imported when the strategy is built
from graphcourse.checks import Check, call
from solutions import graph as sweeps

RULE = (
    "backward_checkpointed(graph, leaves, every, output=None) returns (grads, recomputed), grads mapping every leaf, "
    "and nothing else, to dL/d(leaf) as lesson 2's backward gives it (to 1e-9 relative), whatever every is."
)
TOLERANCE = 1e-9


def checkpoint_call(graph, leaves, every, label, output=None, **extra):
    kwargs = {} if output is None else {"output": output}
    return call("backward_checkpointed", graph, dict(leaves), every, label=label, **kwargs, **extra)


def _reference_grads(case):
    """lesson 2's backward on the case's graph, at its leaves: {leaf: dL/d(leaf)}."""
    graph = [(name, op, list(inputs)) for name, op, inputs in case.args[0]]
    leaves = dict(case.args[1])
    output = case.kwargs.get("output") or graph[-1][0]
    grads = sweeps.backward(graph, sweeps.evaluate(graph, leaves), output)
    return {leaf: grads[leaf] for leaf in leaves}


reference_grads = per_case(_reference_grads)


def answer_parts(case, reply):
    """(grads, recomputed, None) from the reply, or (None, None, the Failure saying what is wrong with its shape)."""
    failure = no_answer(case, reply)
    if failure:
        return None, None, failure
    got = reply.get("value")
    if type(got) is not list or len(got) != 2:
        return (
            None,
            None,
            Failure(case, f"backward_checkpointed should return (grads, recomputed), but returned {short(got)}"),
        )
    grads, recomputed = got
    if type(grads) is not dict:
        return None, None, Failure(case, f"grads should be a dict of leaf -> number, not {short(grads)}")
    return grads, recomputed, None


def gradients_failure(case, reply):
    """None when grads names exactly the leaves, each with lesson 2's number; else the Failure."""
    grads, _recomputed, failure = answer_parts(case, reply)
    if failure:
        return failure
    want = reference_grads(case)
    missing = [leaf for leaf in want if leaf not in grads]
    if missing:
        return Failure(
            case, f"grads has no entry for the leaf {missing[0]!r}: every leaf gets one, 0.0 if L does not depend on it"
        )
    extra = [name for name in grads if name not in want]
    if extra:
        return Failure(
            case, f"grads has an entry for {short(extra[0])}, which is not a leaf: grads maps the leaves only"
        )
    for leaf, number in want.items():
        got = grads[leaf]
        if not is_number(got) or not math.isclose(got, number, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
            return Failure(case, f"expected dL/d{leaf} = {number!r} (lesson 2's backward), got {short(got)}")
    return None


def judge_gradients(check, case, reply):
    return gradients_failure(case, reply)


def power_chain(n, leaf="x"):
    """n0 = x*w, n1 = n0*w, ...: L = x * w**n."""
    return [(f"n{i}", "mul", [f"n{i - 1}" if i else leaf, "w"]) for i in range(n)]


MIXED = [
    ("u", "mul", ["x", "w"]),
    ("y", "tanh", ["u"]),
    ("q", "div", ["y", "v"]),
    ("r", "sub", ["q", "x"]),
    ("s", "relu", ["r"]),
    ("t", "add", ["s", "w"]),
    ("m", "neg", ["t"]),
    ("L", "sq", ["m"]),
]
MIXED_LEAVES = {"x": 0.7, "w": 1.3, "v": 0.4}

OPS = ("add", "sub", "mul", "div", "sq", "tanh", "relu", "neg")


def _smooth(case):
    graph, leaves, _every = case
    try:
        values = sweeps.evaluate(graph, leaves)
    except (ZeroDivisionError, OverflowError):
        return False
    return all(math.isfinite(v) and abs(v) < 1e3 for v in values.values())


@st.composite
def _chains(draw, max_nodes=10):
    """(graph, leaves, every): a sequential graph over the eight ops; each node reads the node before it and/or x, w,
    v."""
    leaves = {"x": draw(st.sampled_from([-1.3, -0.4, 0.6, 1.7])), "w": 0.8, "v": -1.6}
    graph = []
    for i in range(draw(st.integers(1, max_nodes))):
        before = [f"n{i - 1}"] if i else []
        op = draw(st.sampled_from(OPS))
        first = draw(st.sampled_from(before + ["x", "w"]))
        if op == "div":
            inputs = [first, draw(st.sampled_from(["w", "v"]))]
        elif op in ("add", "sub", "mul"):
            inputs = [first, draw(st.sampled_from(before + ["w", "v"]))]
        else:
            inputs = [first]
        graph.append((f"n{i}", op, inputs))
    return graph, leaves, draw(st.integers(1, 11))


def random_chains():
    return (
        _chains()
        .filter(_smooth)
        .map(lambda drawn: checkpoint_call(*drawn, label="a random sequential graph over the eight ops"))
    )


CHECKS = [
    Check(
        "checkpoint_gradients/chains",
        "backward_checkpointed",
        3,
        RULE,
        "checkpoint_gradients",
        cases=(
            checkpoint_call(power_chain(16), {"x": 3.0, "w": 1.25}, 4, label="16 products n_i = n_(i-1)*w, every=4"),
            checkpoint_call(
                power_chain(10), {"x": 3.0, "w": 1.25}, 3, label="10 products, every=3: a shorter last segment"
            ),
            checkpoint_call(MIXED, MIXED_LEAVES, 3, label="a chain over the eight ops, every=3"),
            checkpoint_call(
                MIXED,
                {**MIXED_LEAVES, "spare": 2.0},
                1,
                output="r",
                label="the same chain, output='r', a spare leaf, every=1",
            ),
            checkpoint_call(
                [("s", "mul", ["x", "x"]), ("p", "mul", ["s", "s"]), ("L", "div", ["p", "x"])],
                {"x": 1.5},
                2,
                label="s = x*x, p = s*s, L = p/x, every=2",
            ),
        ),
    ),
    Check(
        "checkpoint_gradients/random",
        "backward_checkpointed",
        2,
        RULE,
        "checkpoint_gradients",
        strategy=random_chains,  # built when its examples are drawn: Hypothesis is imported then
        examples=25,
    ),
]

JUDGES = {"checkpoint_gradients": judge_gradients}
