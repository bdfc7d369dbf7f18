"""Computes values on demand by recursion from the last node, which ignores the listed order and overflows the call stack on a deep chain."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]


def evaluate(graph, leaves):
    nodes = {name: (op, inputs) for name, op, inputs in graph}
    values = dict(leaves)

    def value_of(name):
        if name not in values:
            op, inputs = nodes[name]
            for i in inputs:
                if i not in values and i not in nodes:
                    raise ValueError(f"node {name!r} reads {i!r}, which has no value")
            values[name] = OPS[op](*[value_of(i) for i in inputs])
        return values[name]

    value_of(graph[-1][0])  # the output pulls in everything it needs
    for name, _op, _inputs in graph:
        value_of(name)
    return values
