"""Copies each node's inputs as a sorted set: b - a becomes a - b, and mul t t loses its second read."""

FUNCTION = "topological_order"
FAILS = ["order_agrees"]
PATCH = [("graph.append((name, op, list(inputs)))", "graph.append((name, op, sorted(set(inputs))))")]
