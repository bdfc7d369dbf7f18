"""Reads inputs with values.get(name, 0), so a missing or not-yet-computed name silently counts as 0."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        args = [values.get(i, 0) for i in inputs]
        values[name] = OPS[op](*args)
    return values
