"""Checks for missing names with assert, which raises AssertionError instead of ValueError."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            assert i in values, f"node {name!r} reads {i!r}, which has no value yet"
        values[name] = OPS[op](*(values[i] for i in inputs))
    return values
