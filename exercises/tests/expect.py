"""Assertions whose messages say which node is wrong and what was expected."""

import math

# The lessons' worked examples, as graphs.
Z_GRAPH = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
Z_LEAVES = {"a": 2, "b": 3, "c": 1}
SQUARE_GRAPH = Z_GRAPH + [("L", "sq", ["z"])]  # L = (a*b + c)**2
DIAMOND_GRAPH = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
DIAMOND_LEAVES = {"x": 2}
DIAMOND_VALUES = {"x": 2, "a": 4, "t": 8, "L": 64}


def close(got, want, tol=1e-9):
    return isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=tol, abs_tol=tol)


def assert_values(got, expected, what):
    """Check a dict of name -> number, naming the first wrong entry."""
    assert isinstance(got, dict), f"{what} should return a dict, but returned {type(got).__name__}: {got!r}"
    for name, want in expected.items():
        assert name in got, f"{what}: no entry for {name!r} (the result has {sorted(got)})"
        assert close(got[name], want), f"{what}: wrong value for {name!r}: expected {want}, got {got[name]!r}"
    extra = sorted(set(got) - set(expected))
    assert not extra, f"{what}: unexpected entries {extra}"


def assert_names(got, expected, what):
    """Check a list of names, order included."""
    assert isinstance(got, list), f"{what} should return a list, but returned {type(got).__name__}: {got!r}"
    assert got == expected, f"{what}: expected {expected}, got {got}"
