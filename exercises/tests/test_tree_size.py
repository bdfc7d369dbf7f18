"""Public tests for tree_size(graph, output): the size of the expression tree that writes output out with no sharing."""

import copy

import pytest
from hypothesis import given, strategies as st

from exercises import bounds, strategies

pytestmark = pytest.mark.task_tree_size
MODULE = "tape"

# f(f(f(w))) with f(u) = u*u, as the tape records it: 3 entries.
F3 = [("t0", "mul", ["w", "w"]), ("t1", "mul", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])]


def check(impl, graph, output, want, what):
    got = impl.tree_size(graph, output)
    assert type(got) is int, f"tree_size({what}) should be an int, got {type(got).__name__}: {got!r}"
    assert got == want, f"tree_size({what}) should be {want}, got {got}"


def test_f_of_f_of_f_is_15_tree_nodes_for_3_entries(impl):
    """f(f(f(w))): 3 entries on the tape, 15 nodes in the tree (w is written out 8 times)."""
    check(impl, F3, "t2", 15, "f(f(f(w))), output t2")
    check(impl, F3, "t1", 7, "f(f(w)), output t1")
    check(impl, F3, "t0", 3, "f(w), output t0")


def test_a_leaf_counts_one(impl):
    check(impl, F3, "w", 1, "the leaf w")
    check(impl, [], "x", 1, "an empty graph, output the leaf x")


def test_a_value_read_twice_counts_twice(impl):
    """mul x x writes x out twice (3 nodes); sq x reads x once (2 nodes)."""
    check(impl, [("s", "mul", ["x", "x"])], "s", 3, "mul x x")
    check(impl, [("s", "sq", ["x"])], "s", 2, "sq x")


def test_lesson_one_graph(impl):
    """L = (a*b + a)**2: p = a*b is 3 nodes, q = p + a is 5, L = sq q is 6."""
    graph = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
    check(impl, graph, "L", 6, "L = (a*b + a)**2")
    check(impl, graph, "q", 5, "q = a*b + a in L = (a*b + a)**2")


def test_nodes_after_the_output_do_not_count(impl):
    graph = [("u", "neg", ["x"]), ("v", "mul", ["u", "u"]), ("late", "add", ["v", "v"])]
    check(impl, graph, "v", 5, "v = u*u, with a node after it")


def test_big_sizes_are_exact(impl):
    """1,000 products u*u in a chain: 2**1001 - 1 tree nodes, exactly (far more than a float can count)."""
    graph = [("t0", "mul", ["w", "w"])] + [(f"t{k}", "mul", [f"t{k - 1}", f"t{k - 1}"]) for k in range(1, 1000)]
    check(impl, graph, "t999", 2**1001 - 1, "a chain of 1,000 products u*u")


def test_a_chain_of_10000_needs_no_recursion(impl):
    """A chain of 10,000 negations is 10,001 tree nodes; counting it must not recurse 10,000 deep, and takes time
    linear in the chain (under the grader's recursion limit and time bound: exercises/bounds.py)."""
    graph = [("t0", "neg", ["x"])] + [(f"t{k}", "neg", [f"t{k - 1}"]) for k in range(1, 10_000)]
    what = "tree_size on a chain of 10,000 negations"
    got = bounds.bounded(lambda: impl.tree_size(graph, "t9999"), graph, "tree_size", what)
    assert type(got) is int and got == 10_001, f"{what} should be 10001, got {got!r}"


def test_graph_is_not_modified(impl):
    graph = copy.deepcopy(F3)
    impl.tree_size(graph, "t2")
    assert graph == F3, f"tree_size changed the graph: it is now {graph!r}"


@given(data=st.data())
def test_random_graphs_count_one_plus_every_read(impl, data):
    """On random graphs, asking for each name in turn: a leaf is 1, and every node is 1 plus the size of each
    input, once per read. (Together these pin every answer down: they are the tree with no sharing.)"""
    impl.tree_size([("y", "mul", ["x", "x"])], "y")  # before drawing anything: a task not written yet fails at once
    graph, leaves = data.draw(strategies.graphs(max_nodes=8), label="graph")
    sizes = {}
    for name in [*leaves, *(entry[0] for entry in graph)]:
        size = impl.tree_size(graph, name)
        assert type(size) is int, f"tree_size({graph}, {name!r}) should be an int, got {type(size).__name__}: {size!r}"
        sizes[name] = size
    for leaf in leaves:
        assert sizes[leaf] == 1, f"tree_size({graph}, {leaf!r}): {leaf!r} is a leaf, so 1, got {sizes[leaf]}"
    for name, op, reads in graph:
        want = 1 + sum(sizes[read] for read in reads)
        assert sizes[name] == want, (
            f"tree_size({graph}, {name!r}) is {sizes[name]}, but {name!r} = {op} {' '.join(reads)} should count 1 plus "
            f"the size of each read: 1 + {' + '.join(str(sizes[read]) for read in reads)} = {want} (the sizes your "
            "tree_size gives for its inputs)"
        )
