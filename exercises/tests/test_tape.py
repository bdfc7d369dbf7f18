"""Public tests for the Tape class: its graph and values, and leaf(name, value)."""

import pytest

pytestmark = pytest.mark.task_Tape
MODULE = "tape"


def test_tape_starts_empty(impl):
    """A new tape has an empty graph and no values."""
    tape = impl.Tape()
    assert tape.graph == [], f"Tape().graph should be [], got {tape.graph!r}"
    assert tape.values == {}, f"Tape().values should be {{}}, got {tape.values!r}"


def test_leaf_returns_a_var_with_its_name_and_value(impl):
    """leaf("x", 2) puts x on the tape's values and returns a Var named x holding 2; no entry is appended."""
    tape = impl.Tape()
    x = tape.leaf("x", 2)
    assert x.name == "x", f"leaf('x', 2) returned a Var named {x.name!r}, expected 'x'"
    assert x.value == 2, f"leaf('x', 2) returned a Var holding {x.value!r}, expected 2"
    assert tape.values == {"x": 2}, f"after leaf('x', 2) the tape's values should be {{'x': 2}}, got {tape.values!r}"
    assert tape.graph == [], f"a leaf is not an operation: the graph should stay [], got {tape.graph!r}"


def test_leaves_keep_their_order_and_values(impl):
    """Several leaves, each with its own value."""
    tape = impl.Tape()
    got = [tape.leaf(name, value) for name, value in (("a", 2.5), ("b", -1), ("c", 0.0))]
    assert [v.name for v in got] == ["a", "b", "c"], (
        f"leaf names: expected ['a', 'b', 'c'], got {[v.name for v in got]}"
    )
    assert tape.values == {"a": 2.5, "b": -1, "c": 0.0}, (
        f"values: expected {{'a': 2.5, 'b': -1, 'c': 0.0}}, got {tape.values!r}"
    )


def test_leaf_twice_raises_value_error(impl):
    """A name already on the tape cannot be a new leaf: leaf("x", ...) twice raises ValueError."""
    tape = impl.Tape()
    tape.leaf("x", 1.0)
    with pytest.raises(ValueError):
        tape.leaf("x", 2.0)


def test_tapes_share_nothing(impl):
    """Two tapes are two records: the same leaf name on each is fine, and neither sees the other's leaves."""
    first, second = impl.Tape(), impl.Tape()
    first.leaf("x", 1.0)
    second.leaf("x", 5.0)
    second.leaf("y", 6.0)
    assert first.values == {"x": 1.0}, (
        f"the first tape's values changed when the second one got leaves: {first.values!r}"
    )
    assert second.values == {"x": 5.0, "y": 6.0}, (
        f"the second tape's values: expected {{'x': 5.0, 'y': 6.0}}, got {second.values!r}"
    )
