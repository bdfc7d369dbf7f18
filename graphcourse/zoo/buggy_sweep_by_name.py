"""Sweeps the nodes in reverse alphabetical order of their names instead of in reverse of the listed order."""

FUNCTION = "backward"
FAILS = ["reverse_order"]
PATCH = [("reversed(graph):", "sorted(graph, reverse=True):")]
