"""Walks the graph from the end, as in the backward sweep, so the readers come out in reverse graph order."""

FUNCTION = "users_of"
FAILS = ["users_of_order"]
PATCH = [("for node, _op, inputs in graph if", "for node, _op, inputs in reversed(graph) if")]
