"""Looks inputs up directly, so a missing name raises the dict's KeyError instead of a ValueError naming the node."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        values[name] = OPS[op](*[values[i] for i in inputs])
    return values
