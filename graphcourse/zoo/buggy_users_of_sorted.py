"""Removes duplicate readers with a set and then sorts them by name, losing the graph order."""

FUNCTION = "users_of"
FAILS = ["users_of_order"]
PATCH = [("return [node for node, _op, inputs in graph if name in inputs]", "return sorted({node for node, _op, inputs in graph if name in inputs})")]
