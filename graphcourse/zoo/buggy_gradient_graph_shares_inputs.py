"""Starts graph2 with the graph's own entries, so their inputs lists are shared: appending to graph2's changes graph."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_no_mutation"]
PATCH = [("[(name, op, list(inputs)) for name, op, inputs in graph]", "list(graph)")]
