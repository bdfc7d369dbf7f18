"""Looks inputs up directly, so a missing name raises the dict's KeyError instead of a ValueError naming the node."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]
PATCH = [
    ('        for i in inputs:\n            if i not in values:\n                raise ValueError(f"node {name!r} reads {i!r}, which has no value yet")\n', ""),
]
