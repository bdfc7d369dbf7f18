"""Public tests for gradient_graph(graph, output=None)."""

import copy
import math

import pytest
from hypothesis import given, strategies as st

from exercises import bounds, strategies
from exercises.tests.expect import DIAMOND_GRAPH

pytestmark = pytest.mark.task_gradient_graph
MODULE = "symbolic"

# The ops a new node may use: lesson 1's eight, and "one" and "step".
OP_NAMES = {"add", "sub", "mul", "div", "sq", "tanh", "relu", "neg", "one", "step"}


def names_of(graph):
    """Every name a graph reads or produces."""
    return {name for name, _op, _inputs in graph} | {i for _name, _op, inputs in graph for i in inputs}


def build(impl, graph, output=None):
    """gradient_graph's answer, after the checks every answer must pass: shape, fresh names, order, ops."""
    what = f"gradient_graph({graph if len(graph) < 8 else f'<{len(graph)} nodes>'})"
    result = impl.gradient_graph(graph, output)
    assert isinstance(result, tuple) and len(result) == 2, f"{what} should return (graph2, grads), not {result!r}"
    graph2, grads = result
    assert isinstance(graph2, list) and isinstance(grads, dict), f"{what}: graph2 should be a list and grads a dict"
    assert graph2[: len(graph)] == graph, f"{what}: graph2 should start with the nodes of graph, unchanged"
    old = names_of(graph)
    defined = set(old)  # every name of graph is defined before the new nodes
    for entry in graph2[len(graph) :]:
        name, op, inputs = entry
        assert name not in old, f"{what}: the new node {entry} reuses the name {name!r}, which the graph already uses"
        assert name not in defined, f"{what}: the name {name!r} is given to two new nodes"
        assert op in OP_NAMES, f"{what}: the new node {entry} uses {op!r}, which is not an op of OPS"
        late = [i for i in inputs if i not in defined]
        assert not late, f"{what}: the new node {entry} reads {late}, not defined before it"
        defined.add(name)
    assert set(grads) == old, (
        f"{what}: grads should have one entry per name the graph reads or produces: "
        f"missing {sorted(old - set(grads))}, unexpected {sorted(set(grads) - old)}"
    )
    unknown = {name: g for name, g in grads.items() if g not in defined}
    assert not unknown, f"{what}: grads names nodes that are not in graph2: {unknown}"
    return graph2, grads


def derivatives(evaluate, graph2, grads, leaves):
    """The value of every derivative node, by your lesson-1 evaluate of graph2."""
    values = evaluate(graph2, leaves)
    return {name: values[g] for name, g in grads.items()}


def assert_derivatives(got, want, what, tol=1e-9):
    for name, value in want.items():
        assert math.isclose(got[name], value, rel_tol=tol, abs_tol=tol), (
            f"{what}: the node for dL/d{name} evaluates to {got[name]!r}, expected {value!r}"
        )


def test_gradient_graph_diamond(impl, earlier):
    """L = 4x**4 at x = 2: evaluating graph2 gives dL/dx = 128, dL/da = 32, dL/dt = 16, dL/dL = 1."""
    graph2, grads = build(impl, DIAMOND_GRAPH)
    evaluate = earlier("graph", "evaluate")
    got = derivatives(evaluate, graph2, grads, {"x": 2.0})
    assert_derivatives(got, {"x": 128.0, "a": 32.0, "t": 16.0, "L": 1.0}, "diamond at x = 2")
    assert_derivatives(
        derivatives(evaluate, graph2, grads, {"x": -1.0}), {"x": -16.0, "a": 8.0}, "the same graph2 at x = -1"
    )


def test_gradient_graph_second_derivative_of_the_diamond(impl, earlier):
    """Differentiate the derivative again: d2L/dx2 = 48x**2 = 192 at x = 2, by central differences too."""
    graph2, grads = build(impl, DIAMOND_GRAPH)
    first = grads["x"]
    graph3, grads3 = build(impl, graph2, output=first)
    evaluate = earlier("graph", "evaluate")
    second = evaluate(graph3, {"x": 2.0})[grads3["x"]]
    assert math.isclose(second, 192.0, rel_tol=1e-9), (
        f"gradient_graph(graph2, output=grads['x']) gives d2L/dx2 = {second!r} at x = 2, expected 192"
    )
    numeric = strategies.central_difference(evaluate, graph2, {"x": 2.0}, "x", first, h=1e-5)
    assert math.isclose(numeric, 192.0, rel_tol=1e-6), (
        f"central differences of dL/dx give {numeric}, expected about 192"
    )


@pytest.mark.parametrize(
    "graph, leaves, want",
    [
        ([("y", "tanh", ["u"])], {"u": 0.5}, {"u": 1 - math.tanh(0.5) ** 2, "y": 1.0}),
        ([("y", "relu", ["u"])], {"u": -0.5}, {"u": 0.0, "y": 1.0}),
        ([("y", "relu", ["u"])], {"u": 0.0}, {"u": 0.0, "y": 1.0}),
        ([("y", "relu", ["u"])], {"u": 0.5}, {"u": 1.0, "y": 1.0}),
        ([("y", "div", ["u", "v"])], {"u": 3.0, "v": 2.0}, {"u": 0.5, "v": -0.75}),
        ([("y", "sub", ["u", "v"])], {"u": 3.0, "v": 2.0}, {"u": 1.0, "v": -1.0}),
        ([("y", "mul", ["u", "v"])], {"u": 3.0, "v": 2.0}, {"u": 2.0, "v": 3.0}),
        ([("y", "sq", ["u"])], {"u": 3.0}, {"u": 6.0}),
        ([("y", "neg", ["u"])], {"u": 3.0}, {"u": -1.0}),
        ([("k", "one", []), ("y", "mul", ["k", "u"])], {"u": 3.0}, {"u": 1.0, "k": 3.0}),
        ([("s", "step", ["u"]), ("y", "mul", ["s", "u"])], {"u": 3.0}, {"u": 1.0, "s": 3.0}),
    ],
    ids=["tanh", "relu-negative", "relu-at-zero", "relu-positive", "div", "sub", "mul", "sq", "neg", "one", "step"],
)
def test_gradient_graph_each_op(impl, earlier, graph, leaves, want):
    """Each op's slope written as nodes: the other factor, 1 - out**2 for tanh, step for relu, ..."""
    graph2, grads = build(impl, graph)
    got = derivatives(earlier("graph", "evaluate"), graph2, grads, leaves)
    assert_derivatives(got, want, f"gradient_graph({graph}) at {leaves}")


def test_gradient_graph_fan_out_adds(impl, earlier):
    """x is read by three nodes: L = x*y + tanh(x) - x, so dL/dx = y + 1 - tanh(x)**2 - 1."""
    graph = [("p", "mul", ["x", "y"]), ("h", "tanh", ["x"]), ("q", "add", ["p", "h"]), ("L", "sub", ["q", "x"])]
    graph2, grads = build(impl, graph)
    evaluate = earlier("graph", "evaluate")
    for x, y in ((0.5, 2.0), (-1.5, 0.25)):
        want = {"x": y + 1 - math.tanh(x) ** 2 - 1, "y": x, "p": 1.0, "h": 1.0, "q": 1.0, "L": 1.0}
        assert_derivatives(derivatives(evaluate, graph2, grads, {"x": x, "y": y}), want, f"fan-out at x = {x}, y = {y}")


def test_gradient_graph_zero_for_what_l_does_not_use(impl, earlier):
    """output='p': the leaf c and the node z after p get a node of value 0.0; p gets 1.0."""
    graph = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
    graph2, grads = build(impl, graph, output="p")
    want = {"a": 3.0, "b": 2.0, "c": 0.0, "p": 1.0, "z": 0.0}
    got = derivatives(earlier("graph", "evaluate"), graph2, grads, {"a": 2.0, "b": 3.0, "c": 1.0})
    assert_derivatives(got, want, "output='p'")


def test_gradient_graph_names_stay_fresh(impl, earlier):
    """A graph whose leaves and nodes use the very names your gradient_graph invents gets other names."""
    graph2, _grads = build(impl, [("p", "mul", ["a", "b"]), ("q", "tanh", ["p"]), ("L", "div", ["q", "a"])])
    invented = [name for name, _op, _inputs in graph2[3:]]
    assert len(invented) >= 4, f"expected several new nodes, got {graph2[3:]}"
    u, v, w, z = invented[:4]
    graph = [(w, "mul", [u, v]), (z, "tanh", [w]), ("L", "div", [z, u])]  # build() checks that no name is reused
    graph2, grads = build(impl, graph)
    q = math.tanh(6.0)
    want = {u: (1 - q * q) * 3.0 / 2.0 - q / 4.0, v: (1 - q * q) * 2.0 / 2.0}
    got = derivatives(earlier("graph", "evaluate"), graph2, grads, {u: 2.0, v: 3.0})
    assert_derivatives(got, want, f"the graph {graph}")


def test_gradient_graph_deep_chain_without_recursion(impl, earlier):
    """A chain of 10,000 nodes (L = x*w + 9,999x) needs no recursion, and takes time linear in the chain (under the
    grader's recursion limit and time bound: exercises/bounds.py): dL/dx = w + 9999, dL/dw = x."""
    n = 10_000
    graph = [("n0", "mul", ["x", "w"])] + [(f"n{i}", "add", [f"n{i - 1}", "x"]) for i in range(1, n)]
    graph2, grads = bounds.bounded(
        lambda: impl.gradient_graph(graph), graph, "gradient_graph", "gradient_graph on a chain of 10,000 nodes"
    )
    edges = sum(len(inputs) for _name, _op, inputs in graph)
    assert len(graph2) - n <= 8 * edges + 3, f"{len(graph2) - n} new nodes for {edges} edges: more than 8 per edge + 3"
    values = earlier("graph", "evaluate")(graph2, {"x": 0.5, "w": 3.0})
    assert_derivatives({"x": values[grads["x"]], "w": values[grads["w"]]}, {"x": 3.0 + 9999, "w": 0.5}, "the chain")


def test_gradient_graph_leaves_graph_unchanged(impl):
    graph = copy.deepcopy(DIAMOND_GRAPH)
    graph2, _grads = impl.gradient_graph(graph)
    assert graph == DIAMOND_GRAPH, f"gradient_graph changed the graph: it is now {graph}"
    graph2[0][2].append("oops")
    assert graph == DIAMOND_GRAPH, "graph2 shares its inputs lists with graph: copy them"


@given(data=st.data(), where=st.sampled_from([None, "first"]))
def test_gradient_graph_random_graphs(impl, earlier, data, where):
    """On random graphs over all eight ops: every leaf's derivative node agrees (1e-4) with central differences of your
    lesson-1 evaluate, and graph2 stays within 8 new nodes per edge plus 3."""
    build(impl, [("y", "mul", ["x", "x"])])  # before drawing anything: a task not written yet fails at once
    evaluate = earlier("graph", "evaluate")
    graph, leaves = data.draw(strategies.smooth_graphs(evaluate, max_leaves=3, max_nodes=8), label="graph")
    output = graph[0][0] if where == "first" else graph[-1][0]
    graph2, grads = build(impl, graph, None if where is None else output)
    edges = sum(len(inputs) for _name, _op, inputs in graph)
    assert len(graph2) - len(graph) <= 8 * edges + 3, (
        f"gradient_graph({graph}): {len(graph2) - len(graph)} new nodes for {edges} edges, more than 8 per edge + 3"
    )
    got = derivatives(evaluate, graph2, grads, leaves)
    for leaf in set(leaves) & set(grads):
        numeric = strategies.central_difference(evaluate, graph, leaves, leaf, output)
        assert math.isclose(got[leaf], numeric, rel_tol=1e-4, abs_tol=1e-4), (
            f"gradient_graph({graph}, output={output!r}) at {leaves}: the node for dL/d{leaf} evaluates to "
            f"{got[leaf]!r}, expected about {numeric:.6g} (central differences of your evaluate)"
        )
