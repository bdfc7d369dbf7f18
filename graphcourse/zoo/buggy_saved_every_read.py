"""Lists a name once per edge, so mul x x saves ["x", "x"]: x is one stored value, however often it is read."""

FUNCTION = "saved_for_backward"
FAILS = ["saved_once"]


def saved_for_backward(graph):
    saved = {}
    for name, op, inputs in graph:
        if op == "tanh":
            saved[name] = [name]
        elif op in ("mul", "div", "sq", "relu"):
            saved[name] = list(inputs)
        else:
            saved[name] = []
    return saved
