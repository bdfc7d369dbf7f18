"""Public tests for evaluate(graph, leaves)."""

import copy

import pytest

from exercises.tests.expect import (
    DIAMOND_GRAPH,
    DIAMOND_LEAVES,
    DIAMOND_VALUES,
    SQUARE_GRAPH,
    Z_GRAPH,
    Z_LEAVES,
    assert_values,
)

pytestmark = pytest.mark.task_evaluate


def test_evaluate_worked_example_z_is_7(impl):
    """z = a*b + c with a=2, b=3, c=1 gives p=6 and z=7, leaves included."""
    got = impl.evaluate(Z_GRAPH, Z_LEAVES)
    assert_values(got, {"a": 2, "b": 3, "c": 1, "p": 6, "z": 7}, "evaluate(z = a*b + c)")


def test_evaluate_square_of_z_is_49(impl):
    """L = (a*b + c)**2 gives 49."""
    got = impl.evaluate(SQUARE_GRAPH, Z_LEAVES)
    assert_values(got, {"a": 2, "b": 3, "c": 1, "p": 6, "z": 7, "L": 49}, "evaluate(L = (a*b + c)**2)")


def test_evaluate_diamond_gives_64(impl):
    """a = x*x, t = a + a, L = t*t with x=2 gives a=4, t=8, L=64."""
    got = impl.evaluate(DIAMOND_GRAPH, DIAMOND_LEAVES)
    assert_values(got, DIAMOND_VALUES, "evaluate(diamond)")


@pytest.mark.parametrize(
    "op, inputs, want",
    [
        ("add", [3.0, 2.0], 5.0),
        ("sub", [3.0, 2.0], 1.0),
        ("mul", [3.0, 2.0], 6.0),
        ("div", [3.0, 2.0], 1.5),
        ("sq", [3.0], 9.0),
        ("tanh", [0.0], 0.0),
        ("relu", [-3.0], 0.0),
        ("relu", [3.0], 3.0),
        ("neg", [3.0], -3.0),
    ],
)
def test_evaluate_uses_each_op(impl, op, inputs, want):
    """Each op of OPS computes its node's value from the inputs in the order listed."""
    leaves = {f"u{i}": v for i, v in enumerate(inputs)}
    got = impl.evaluate([("y", op, list(leaves))], leaves)
    assert_values(got, {**leaves, "y": want}, f"evaluate with one {op!r} node")


def test_evaluate_wrong_order_raises_valueerror(impl):
    """A node listed before a node it reads raises ValueError, not KeyError."""
    wrong_order = [("z", "add", ["p", "c"]), ("p", "mul", ["a", "b"])]
    with pytest.raises(ValueError):
        impl.evaluate(wrong_order, Z_LEAVES)


def test_evaluate_missing_leaf_raises_valueerror(impl):
    """A leaf missing from `leaves` raises ValueError instead of defaulting to 0."""
    with pytest.raises(ValueError):
        impl.evaluate(Z_GRAPH, {"a": 2, "b": 3})


def test_evaluate_leaves_arguments_unchanged(impl):
    """evaluate returns a new dict and does not modify `graph` or `leaves`."""
    graph, leaves = copy.deepcopy(Z_GRAPH), dict(Z_LEAVES)
    result = impl.evaluate(graph, leaves)
    assert leaves == Z_LEAVES, f"evaluate changed the `leaves` dict: it is now {leaves}"
    assert graph == Z_GRAPH, "evaluate changed the graph list"
    assert result is not leaves, "evaluate returned the `leaves` dict itself: return a new dict"
