"""Keeps passing over the graph until every node can be computed, so a graph listed in the wrong order is silently reordered instead of rejected."""

FUNCTION = "evaluate"
FAILS = ["wrong_order_valueerror"]


def evaluate(graph, leaves):
    values = dict(leaves)
    pending = list(graph)
    while pending:
        waiting = []
        for name, op, inputs in pending:
            if all(i in values for i in inputs):
                values[name] = OPS[op](*(values[i] for i in inputs))
            else:
                waiting.append((name, op, inputs))
        if len(waiting) == len(pending):  # no progress: something is really missing
            name, _op, inputs = waiting[0]
            missing = [i for i in inputs if i not in values][0]
            raise ValueError(f"node {name!r} reads {missing!r}, which has no value")
        pending = waiting
    return values
