"""A sum or difference saves its inputs, as a product does: their slopes are 1 and -1 whatever the inputs are."""

FUNCTION = "saved_for_backward"
FAILS = ["saved_per_op"]


def saved_for_backward(graph):
    saved = {}
    for name, op, inputs in graph:
        if op == "tanh":
            saved[name] = [name]
        elif op == "neg":
            saved[name] = []
        else:
            saved[name] = list(dict.fromkeys(inputs))
    return saved
