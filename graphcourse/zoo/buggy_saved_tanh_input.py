"""tanh saves its input, as if its slope were computed from u: its slope 1 - out**2 reads the node's own output."""

FUNCTION = "saved_for_backward"
FAILS = ["saved_per_op"]


def saved_for_backward(graph):
    saved = {}
    for name, op, inputs in graph:
        if op in ("mul", "div", "sq", "relu", "tanh"):
            saved[name] = list(dict.fromkeys(inputs))
        else:
            saved[name] = []
    return saved
