"""Sweeps the graph in listed order instead of reverse, so gradients reach a node before its readers have received theirs."""

FUNCTION = "backward"
FAILS = ["reverse_order", "fan_out_accumulation", "finite_difference_agreement"]
PATCH = [("for name, op, inputs in reversed(graph):", "for name, op, inputs in graph:")]
