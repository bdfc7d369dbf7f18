"""Public tests for users_of(graph, name)."""

import pytest

from exercises.tests.expect import DIAMOND_GRAPH, Z_GRAPH, assert_names

pytestmark = pytest.mark.task_users_of

LESSON_GRAPH = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]  # L = (a*b + a)**2


def test_users_of_fan_out_in_graph_order(impl):
    """In L = (a*b + a)**2 the leaf a feeds p and q, listed in graph order."""
    assert_names(impl.users_of(LESSON_GRAPH, "a"), ["p", "q"], "users_of(graph, 'a')")


def test_users_of_reader_listed_once(impl):
    """a = x*x reads x twice but is one user, listed once."""
    assert_names(impl.users_of(DIAMOND_GRAPH, "x"), ["a"], "users_of(diamond, 'x')")
    assert_names(impl.users_of(DIAMOND_GRAPH, "a"), ["t"], "users_of(diamond, 'a')")


def test_users_of_not_alphabetical(impl):
    """Users come in the order the graph lists them, not sorted by name."""
    graph = [("z", "neg", ["x"]), ("m", "sq", ["x"]), ("b", "add", ["z", "x"])]
    assert_names(impl.users_of(graph, "x"), ["z", "m", "b"], "users_of(graph, 'x')")


def test_users_of_output_is_empty(impl):
    """Nothing reads the last node, so it has no users."""
    assert_names(impl.users_of(Z_GRAPH, "z"), [], "users_of(graph, 'z')")
