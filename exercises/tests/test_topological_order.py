"""Public tests for topological_order(nodes): any order in which every node comes after its inputs is right."""

import copy
import random

import pytest
from hypothesis import given, strategies as st

from exercises import bounds, strategies

pytestmark = pytest.mark.task_topological_order
MODULE = "order"

# L = (a*b + a)**2 from lesson 1, its records given last node first.
ABA = {"L": ("sq", ["q"]), "q": ("add", ["p", "a"]), "p": ("mul", ["a", "b"])}


def assert_valid_order(got, nodes, what):
    """Every node once, as (name, op, inputs) with its own op and inputs, each after the nodes it reads; no leaf."""
    assert isinstance(got, list), (
        f"{what} should return a list of (name, op, inputs), but returned {type(got).__name__}: {got!r}"
    )
    position = {}
    for k, entry in enumerate(got):
        assert isinstance(entry, (tuple, list)) and len(entry) == 3, (
            f"{what}: entry {k} should be (name, op, inputs), got {entry!r}"
        )
        name, op, inputs = entry
        assert name in nodes, (
            f"{what}: entry {k} lists {name!r}, which is a leaf (not a key of nodes): leaves are not listed"
        )
        assert name not in position, (
            f"{what}: {name!r} is listed twice, at {position[name]} and {k}; list every node once"
        )
        want_op, want_inputs = nodes[name]
        assert (op, list(inputs)) == (want_op, list(want_inputs)), (
            f"{what}: {name!r} should keep its own op and inputs {(want_op, list(want_inputs))}, got {(op, inputs)}"
        )
        position[name] = k
    missing = [name for name in nodes if name not in position]
    assert not missing, f"{what}: {len(missing)} node(s) are not listed, for example {missing[0]!r}"
    for name, _op, reads in got:
        for read in reads:
            if read in nodes:
                assert position[read] < position[name], (
                    f"{what}: {name!r} (at {position[name]}) reads {read!r}, which comes later (at {position[read]}); "
                    "every node must come after the nodes it reads"
                )


def test_lesson_one_records_given_backwards(impl):
    """L = (a*b + a)**2, records given L first: the only valid order is p, q, L."""
    got = impl.topological_order(ABA)
    assert_valid_order(got, ABA, "topological_order(L = (a*b + a)**2, given L first)")
    assert [e[0] for e in got] == ["p", "q", "L"], f"p, q, L is the only valid order here, got {[e[0] for e in got]}"


def test_independent_nodes_may_come_in_any_order(impl):
    """u and v read only leaves, so either may come first; both come before w."""
    nodes = {"w": ("add", ["u", "v"]), "v": ("neg", ["y"]), "u": ("mul", ["x", "x"])}
    assert_valid_order(impl.topological_order(nodes), nodes, "topological_order(w = u + v)")


def test_a_node_reading_a_node_twice_is_listed_once(impl):
    """t = a + a reads a twice: a and t are each listed once."""
    nodes = {"L": ("mul", ["t", "t"]), "t": ("add", ["a", "a"]), "a": ("mul", ["x", "x"])}
    got = impl.topological_order(nodes)
    assert_valid_order(got, nodes, "topological_order(the diamond, given L first)")


def test_no_nodes_gives_an_empty_graph(impl):
    assert impl.topological_order({}) == [], "topological_order({}) should be []"


def test_inputs_are_new_lists(impl):
    """The result's inputs lists are new lists, so changing them cannot change the records."""
    nodes = copy.deepcopy(ABA)
    for _name, _op, inputs in impl.topological_order(nodes):
        inputs.append("junk")
    assert nodes == ABA, f"changing the result's inputs changed the records: they are now {nodes}"


def test_nodes_are_not_modified(impl):
    nodes = {"q": ("add", ["p", "a"]), "p": ("mul", ["a", "b"]), "u": ("neg", ["u2"]), "u2": ("sq", ["p"])}
    before = copy.deepcopy(nodes)
    impl.topological_order(nodes)
    assert nodes == before and list(nodes) == list(before), f"topological_order changed its argument: it is now {nodes}"


def cycle_error(impl, nodes):
    with pytest.raises(ValueError) as raised:
        impl.topological_order(nodes)
    return str(raised.value)


def test_a_cycle_raises_and_names_a_node_on_it(impl):
    """ping reads pong and pong reads ping: ValueError, and the message names ping or pong."""
    message = cycle_error(impl, {"ping": ("add", ["pong", "x"]), "pong": ("neg", ["ping"])})
    assert "ping" in message or "pong" in message, (
        f"the cycle error should name a node on the cycle (ping or pong): {message!r}"
    )


def test_a_node_reading_itself_is_a_cycle(impl):
    message = cycle_error(impl, {"selfish": ("mul", ["selfish", "x"])})
    assert "selfish" in message, f"the cycle error should name the node that reads itself, 'selfish': {message!r}"


def test_a_cycle_beside_a_valid_part(impl):
    """Most records are fine; a cycle hides among them, with a node after it that is not on it."""
    nodes = {
        "p": ("mul", ["a", "b"]),
        "q": ("add", ["p", "c"]),
        "loop_one": ("add", ["q", "loop_two"]),
        "loop_two": ("sq", ["loop_three"]),
        "loop_three": ("neg", ["loop_one"]),
        "after": ("neg", ["loop_two"]),
    }
    message = cycle_error(impl, nodes)
    assert any(name in message for name in ("loop_one", "loop_two", "loop_three")), (
        f"the cycle error should name a node on the cycle loop_one -> loop_two -> loop_three: {message!r}"
    )


@given(data=st.data())
def test_random_records_in_shuffled_order(impl, data):
    """Random graphs whose records come in a shuffled order: the result is a valid order of them."""
    impl.topological_order({"y": ("neg", ["x"])})  # before drawing anything: a task not written yet fails at once
    graph, _leaves = data.draw(strategies.graphs(max_leaves=3, max_nodes=10), label="graph")
    seed = data.draw(st.integers(0, 2**16), label="shuffle seed")
    entries = list(graph)
    random.Random(seed).shuffle(entries)
    nodes = {name: (op, list(inputs)) for name, op, inputs in entries}
    assert_valid_order(impl.topological_order(nodes), nodes, f"topological_order({nodes})")


def test_a_chain_of_100000_needs_no_recursion(impl):
    """100,000 nodes in a chain, given last first: the order is found without recursing 100,000 deep.

    (Last in this file: code that scans for a ready node over and over takes hours here, not seconds.)
    """
    n = 100_000
    nodes = {f"n{k}": ("neg", [f"n{k - 1}" if k else "x"]) for k in reversed(range(n))}
    got = bounds.bounded(
        lambda: impl.topological_order(nodes),
        nodes,
        "topological_order",
        f"topological_order on a chain of {n:,} nodes",
    )
    assert isinstance(got, list) and len(got) == n, (
        f"a chain of {n} nodes should give {n} entries, got {len(got) if isinstance(got, list) else got!r}"
    )
    names = [entry[0] for entry in got]
    assert names == [f"n{k}" for k in range(n)], (
        "a chain has one valid order, n0 first; the result lists its nodes in another"
    )
