"""Checks up front that every input is a leaf or some node, but not that it is computed before it is read, so a wrong order ends in KeyError."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]


def evaluate(graph, leaves):
    known = set(leaves) | {name for name, _op, _inputs in graph}
    for name, _op, inputs in graph:
        for i in inputs:
            if i not in known:
                raise ValueError(f"node {name!r} reads {i!r}, which is neither a leaf nor a node")
    values = dict(leaves)
    for name, op, inputs in graph:
        values[name] = OPS[op](*(values[i] for i in inputs))
    return values
