"""Public tests for inputs_of(graph, name)."""

import pytest

from exercises.tests.expect import DIAMOND_GRAPH, Z_GRAPH, assert_names

pytestmark = pytest.mark.task_inputs_of


def test_inputs_of_z_is_product_and_c(impl):
    """z = p + c reads the product node p and the leaf c, in that order."""
    assert_names(impl.inputs_of(Z_GRAPH, "z"), ["p", "c"], "inputs_of(graph, 'z')")


def test_inputs_of_keeps_duplicates(impl):
    """a = x*x has two edges from x, so x is listed twice."""
    assert_names(impl.inputs_of(DIAMOND_GRAPH, "a"), ["x", "x"], "inputs_of(diamond, 'a')")


def test_inputs_of_leaf_is_empty(impl):
    """A leaf has no inputs of its own."""
    assert_names(impl.inputs_of(Z_GRAPH, "a"), [], "inputs_of(graph, 'a') for the leaf a")


def test_inputs_of_unknown_name_is_empty(impl):
    """A name that is not in the graph at all gives []."""
    assert_names(impl.inputs_of(Z_GRAPH, "nowhere"), [], "inputs_of(graph, 'nowhere')")


def test_inputs_of_returns_a_new_list(impl):
    """Changing the returned list leaves the graph as it was."""
    graph = [("p", "mul", ["a", "b"])]
    impl.inputs_of(graph, "p").append("oops")
    assert graph == [("p", "mul", ["a", "b"])], "inputs_of returned the graph's own list: return a copy"
