"""Public tests for saved_for_backward(graph)."""

import copy

import pytest
from hypothesis import given, strategies as st

from exercises import strategies
from exercises.tests.expect import DIAMOND_GRAPH

pytestmark = pytest.mark.task_saved_for_backward
MODULE = "memory"


def assert_saved(got, want, what):
    assert isinstance(got, dict), f"{what} should return a dict, but returned {type(got).__name__}: {got!r}"
    for name, names in want.items():
        assert name in got, f"{what}: no entry for node {name!r} (the result has {sorted(got)})"
        assert isinstance(got[name], list), f"{what}: node {name!r} should map to a list, not {got[name]!r}"
        assert got[name] == names, f"{what}: node {name!r} saves {got[name]}, expected {names}"
    extra = sorted(set(got) - set(want))
    assert not extra, f"{what}: unexpected entries {extra} (only the graph's nodes have an entry, not its leaves)"


@pytest.mark.parametrize(
    "op, inputs, want",
    [
        ("add", ["u", "v"], []),
        ("sub", ["u", "v"], []),
        ("neg", ["u"], []),
        ("mul", ["u", "v"], ["u", "v"]),
        ("div", ["u", "v"], ["u", "v"]),
        ("sq", ["u"], ["u"]),
        ("relu", ["u"], ["u"]),
        ("tanh", ["u"], ["y"]),
    ],
)
def test_saved_for_backward_each_op(impl, op, inputs, want):
    """Sums and negation read nothing; mul, div, sq and relu read their inputs; tanh reads its own output."""
    assert_saved(
        impl.saved_for_backward([("y", op, inputs)]), {"y": want}, f"saved_for_backward([('y', {op!r}, {inputs})])"
    )


def test_saved_for_backward_value_read_twice_listed_once(impl):
    """mul x x reads x along two edges, but x is one stored value: ["x"]."""
    assert_saved(impl.saved_for_backward([("s", "mul", ["x", "x"])]), {"s": ["x"]}, "saved_for_backward(s = x*x)")
    assert_saved(impl.saved_for_backward([("q", "div", ["x", "x"])]), {"q": ["x"]}, "saved_for_backward(q = x/x)")


def test_saved_for_backward_input_order(impl):
    """Names come in the order the node lists its inputs, not sorted."""
    assert_saved(impl.saved_for_backward([("p", "mul", ["w", "b"])]), {"p": ["w", "b"]}, "saved_for_backward(p = w*b)")


def test_saved_for_backward_diamond_bill(impl):
    """The diamond (a = x*x, t = a + a, L = t*t) keeps two values for its sweep: x and t."""
    got = impl.saved_for_backward(DIAMOND_GRAPH)
    assert_saved(got, {"a": ["x"], "t": [], "L": ["t"]}, "saved_for_backward(diamond)")


def test_saved_for_backward_tanh_chain(impl):
    """y = tanh(u), z = y*w: y saves itself, z saves both factors."""
    graph = [("y", "tanh", ["u"]), ("z", "mul", ["y", "w"])]
    assert_saved(impl.saved_for_backward(graph), {"y": ["y"], "z": ["y", "w"]}, "saved_for_backward(z = tanh(u)*w)")


def test_saved_for_backward_leaves_graph_unchanged(impl):
    """saved_for_backward does not modify the graph, and its lists are new ones."""
    graph = copy.deepcopy(DIAMOND_GRAPH)
    got = impl.saved_for_backward(graph)
    assert graph == DIAMOND_GRAPH, f"saved_for_backward changed the graph: it is now {graph}"
    got["a"].append("oops")
    assert graph == DIAMOND_GRAPH, "the list saved_for_backward returned for 'a' is the graph's own inputs list"


@given(data=st.data())
def test_saved_for_backward_random_graphs(impl, data):
    """On random graphs over all eight ops: one entry per node, and each node saves what it saves on its own.

    A node's entry depends on its op and inputs only, so it is the entry the node gets in a graph of that one
    node (which the tests above pin down op by op): distinct names, among its inputs or its own name, in input order.
    """
    impl.saved_for_backward([("y", "mul", ["x", "x"])])  # before drawing anything: a task not written yet fails at once
    graph, _leaves = data.draw(strategies.graphs(max_leaves=3, max_nodes=10), label="graph")
    got = impl.saved_for_backward(graph)
    what = f"saved_for_backward({graph})"
    assert isinstance(got, dict), f"{what} should return a dict, but returned {type(got).__name__}: {got!r}"
    nodes = [entry[0] for entry in graph]
    assert sorted(got) == sorted(nodes), f"{what}: one entry per node {nodes}, got entries for {sorted(got)}"
    for name, op, reads in graph:
        kept = got[name]
        assert isinstance(kept, list), f"{what}: node {name!r} should map to a list, not {kept!r}"
        assert len(set(kept)) == len(kept), f"{what}: node {name!r} lists a name twice: {kept}; each stored value once"
        assert set(kept) <= set(reads) | {name}, (
            f"{what}: node {name!r} = {op} {' '.join(reads)} saves {kept}; "
            "a node's slopes read only its inputs or its output"
        )
        ordered = [read for read in dict.fromkeys(reads) if read in kept]
        assert [n for n in kept if n != name] == ordered, (
            f"{what}: node {name!r} saves {kept}: inputs in the order the node lists them"
        )
        alone = impl.saved_for_backward([(name, op, list(reads))])
        assert kept == alone.get(name), (
            f"{what}: node {name!r} = {op} {' '.join(reads)} saves {kept} in this graph "
            f"but {alone.get(name)!r} in a graph of that node alone; "
            "what a node saves depends only on its op and inputs"
        )
