"""Hands back the graph's own inputs list for a product of two names: appending to the answer changes the graph."""

FUNCTION = "saved_for_backward"
FAILS = ["memory_no_mutation"]


def saved_for_backward(graph):
    saved = {}
    for name, op, inputs in graph:
        if op == "tanh":
            saved[name] = [name]
        elif op in ("mul", "div", "sq", "relu"):
            saved[name] = inputs if len(set(inputs)) == len(inputs) else list(dict.fromkeys(inputs))
        else:
            saved[name] = []
    return saved
