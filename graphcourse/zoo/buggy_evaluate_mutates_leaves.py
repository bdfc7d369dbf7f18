"""Writes the node values straight into the caller's leaves dict instead of into a copy."""

FUNCTION = "evaluate"
FAILS = ["no_mutation"]
PATCH = [("dict(leaves)", "leaves")]
