"""Confuses the two directions of an edge and returns what the name reads instead of the nodes that read it."""

FUNCTION = "users_of"
FAILS = ["users_of_dedup", "users_of_order"]
PATCH = [
    (
        "return [node for node, _op, inputs in graph if name in inputs]",
        "return next((list(dict.fromkeys(inputs)) for node, _op, inputs in graph if node == name), [])",
    ),
]
