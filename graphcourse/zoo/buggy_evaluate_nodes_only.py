"""Returns only the values of the nodes and leaves the leaves out of the result."""

FUNCTION = "evaluate"
FAILS = ["evaluate_values"]


def evaluate(graph, leaves):
    known = dict(leaves)
    result = {}
    for name, op, inputs in graph:
        for i in inputs:
            if i not in known:
                raise ValueError(f"node {name!r} reads {i!r}, which has no value yet")
        known[name] = OPS[op](*(known[i] for i in inputs))
        result[name] = known[name]
    return result
