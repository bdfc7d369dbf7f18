"""Writes the node values straight into the caller's leaves dict instead of into a copy."""

FUNCTION = "evaluate"
FAILS = ["no_mutation"]


def evaluate(graph, leaves):
    values = leaves
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"node {name!r} reads {i!r}, which has no value yet")
        values[name] = OPS[op](*(values[i] for i in inputs))
    return values
