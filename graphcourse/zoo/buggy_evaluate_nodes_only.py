"""Returns only the values of the nodes and leaves the leaves out of the result."""

FUNCTION = "evaluate"
FAILS = ["evaluate_values"]
PATCH = [("    return values", "    return {name: values[name] for name, _op, _inputs in graph}")]
