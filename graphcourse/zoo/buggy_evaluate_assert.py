"""Checks for missing names with assert, which raises AssertionError instead of ValueError."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]
PATCH = [
    (
        '            if i not in values:\n                raise ValueError(f"node {name!r} reads {i!r}, which has no value yet")',
        '            assert i in values, f"node {name!r} reads {i!r}, which has no value yet"',
    ),
]
