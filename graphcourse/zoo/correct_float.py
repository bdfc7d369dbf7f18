"""Floats throughout: every leaf, node value and gradient is converted with float()."""

FUNCTION = None
FAILS = []


def evaluate(graph, leaves):
    values = {name: float(v) for name, v in leaves.items()}
    for name, op, inputs in graph:
        absent = next((i for i in inputs if i not in values), None)
        if absent is not None:
            raise ValueError(f"node {name!r} needs {absent!r}, which has no value yet")
        values[name] = float(OPS[op](*(values[i] for i in inputs)))
    return values


def inputs_of(graph, name):
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])


def users_of(graph, name):
    return [node for node, _op, inputs in graph if any(i == name for i in inputs)]


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        g = float(grads[name])
        args = [float(values[i]) for i in inputs]
        out = float(values[name])
        if op == "add":
            local = (1.0, 1.0)
        elif op == "sub":
            local = (1.0, -1.0)
        elif op == "mul":
            local = (args[1], args[0])
        elif op == "div":
            local = (1.0 / args[1], -args[0] / (args[1] * args[1]))
        elif op == "sq":
            local = (2.0 * args[0],)
        elif op == "tanh":
            local = (1.0 - out * out,)
        elif op == "relu":
            local = (1.0 if args[0] > 0.0 else 0.0,)
        else:
            local = (-1.0,)
        for i, slope in zip(inputs, local):
            grads[i] = float(grads[i]) + g * slope
    return grads
