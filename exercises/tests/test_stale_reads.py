"""Public tests for stale_reads(graph, overwritten)."""

import copy

import pytest
from hypothesis import given, strategies as st

from exercises import strategies

pytestmark = pytest.mark.task_stale_reads
MODULE = "memory"

# Positions 0..3: p saves w and x, y saves its own output, z saves nothing, L saves z and w.
GRAPH = [("p", "mul", ["w", "x"]), ("y", "tanh", ["p"]), ("z", "add", ["y", "b"]), ("L", "mul", ["z", "w"])]


def check(impl, overwritten, want, why, graph=GRAPH):
    got = impl.stale_reads(graph, overwritten)
    what = f"stale_reads(graph, {overwritten})"
    assert isinstance(got, list), f"{what} should return a list, but returned {type(got).__name__}: {got!r}"
    assert got == want, f"{what}: expected {want}, got {got} ({why})"


def test_stale_reads_nothing_replaced(impl):
    check(impl, [], [], "nothing was replaced")


def test_stale_reads_replaced_after_the_node(impl):
    """x is replaced after y ran: p saved the old x, so p's slope for w would read a wrong number."""
    check(impl, [(1, "x")], ["p"], "p saved x at position 0, and x changed after position 1")


def test_stale_reads_replaced_at_the_node(impl):
    """Right after p ran is already too late: p has saved x."""
    check(impl, [(0, "x")], ["p"], "a replacement right after p ran comes after p saved x")


def test_stale_reads_replaced_before_the_node(impl):
    """z is replaced right after z ran, before L ran: L read the new value, so nothing is stale."""
    check(impl, [(2, "z")], [], "L runs at position 3, after the replacement, and saves the new z")


def test_stale_reads_tanh_own_output(impl):
    """tanh saves its own output: replacing y after it ran makes y stale, not its readers."""
    check(impl, [(1, "y")], ["y"], "y's slope reads y itself")
    check(impl, [(3, "y")], ["y"], "y's slope reads y itself")


def test_stale_reads_value_nobody_saves(impl):
    """b and p are read only by sums and tanh, whose slopes do not read them."""
    check(impl, [(0, "b"), (3, "p")], [], "z = y + b saves nothing, and y = tanh(p) saves y, not p")


def test_stale_reads_several_replacements_in_graph_order(impl):
    """w is saved by p and L; both are stale, listed in graph order, each once."""
    check(impl, [(3, "w")], ["p", "L"], "w changed after both p and L saved it")
    check(impl, [(3, "w"), (0, "x"), (3, "w")], ["p", "L"], "graph order, each node once")


def test_stale_reads_same_name_before_and_after(impl):
    """A replacement before L ran does not excuse a later one."""
    check(impl, [(0, "z"), (3, "z")], ["L"], "z was replaced again right after L saved it")


def test_stale_reads_leaves_arguments_unchanged(impl):
    graph, overwritten = copy.deepcopy(GRAPH), [(3, "w"), (0, "x")]
    impl.stale_reads(graph, overwritten)
    assert graph == GRAPH, f"stale_reads changed the graph: it is now {graph}"
    assert overwritten == [(3, "w"), (0, "x")], f"stale_reads changed `overwritten`: it is now {overwritten}"


@given(data=st.data())
def test_stale_reads_random_graphs(impl, earlier, data):
    """On random graphs and replacements, checked against what your saved_for_backward says each node saves:
    - a node listed for one replacement saves the replaced name and ran at or before the replacement;
    - a replacement after the last node makes stale exactly the nodes that save that name;
    - several replacements make stale the nodes that one of them makes stale, in graph order, each once."""
    impl.stale_reads([("y", "mul", ["x", "x"])], [])  # before drawing anything: a task not written yet fails at once
    graph, leaves = data.draw(strategies.graphs(max_leaves=3, max_nodes=8), label="graph")
    names = list(leaves) + [entry[0] for entry in graph]
    overwritten = data.draw(
        st.lists(st.tuples(st.integers(0, len(graph) - 1), st.sampled_from(names)), max_size=4), label="overwritten"
    )
    saved = earlier("memory", "saved_for_backward")(graph)
    position = {entry[0]: k for k, entry in enumerate(graph)}

    def stale(replacements):
        got = impl.stale_reads(graph, replacements)
        what = f"stale_reads({graph}, {replacements})"
        assert isinstance(got, list), f"{what} should return a list, but returned {type(got).__name__}: {got!r}"
        assert all(name in position for name in got), f"{what}: {got} lists names that are not nodes of the graph"
        assert got == sorted(set(got), key=position.get), f"{what}: {got} should list each node once, in graph order"
        return got

    for at, replaced in overwritten:
        for name in stale([(at, replaced)]):
            assert replaced in saved[name] and position[name] <= at, (
                f"stale_reads({graph}, {[(at, replaced)]}) lists {name!r}, at position {position[name]}, which saves "
                f"{saved[name]} (your saved_for_backward): "
                f"it is stale only if it saves {replaced!r} and ran at or before position {at}"
            )
    last = len(graph) - 1
    for replaced in names:
        want = [name for name, _op, _reads in graph if replaced in saved[name]]
        got = stale([(last, replaced)])
        assert got == want, (
            f"stale_reads({graph}, {[(last, replaced)]}): {replaced!r} was replaced after every node ran, "
            f"so every node that saves it (by your saved_for_backward: {want}) is stale; got {got}"
        )
    singles = {name for replacement in overwritten for name in stale([replacement])}
    want = [entry[0] for entry in graph if entry[0] in singles]
    got = stale(overwritten)
    assert got == want, (
        f"stale_reads({graph}, {overwritten}): the nodes stale for one of the replacements are {want}, got {got}"
    )
