"""Leaves L itself out of grads: the seed node of value 1.0 starts the sweep but is never reported as dL/dL."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_names"]
PATCH = [("grad[name] for name in names}", "grad[name] for name in names if name != output}")]
