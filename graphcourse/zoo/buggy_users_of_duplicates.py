"""Adds the reader once per edge, so a node that reads the value twice (mul x x) is listed twice."""

FUNCTION = "users_of"
FAILS = ["users_of_dedup"]
PATCH = [("for node, _op, inputs in graph if name in inputs]", "for node, _op, inputs in graph for i in inputs if i == name]")]
