"""Explicit stack: nodes are pushed in listed order and popped for the backward sweep."""

FUNCTION = None
FAILS = []


def evaluate(graph, leaves):
    values = {}
    values.update(leaves)
    for name, op, inputs in graph:
        missing = [i for i in inputs if i not in values]
        if missing:
            raise ValueError(f"cannot compute {name!r}: {missing[0]!r} has no value yet")
        values[name] = OPS[op](*[values[i] for i in inputs])
    return values


def inputs_of(graph, name):
    found = []
    for node, _op, inputs in graph:
        if node == name:
            found.extend(inputs)
            break
    return found


def users_of(graph, name):
    readers = []
    for node, _op, inputs in graph:
        for i in inputs:
            if i == name:
                readers.append(node)
                break
    return readers


def _local_slopes(op, args, out):
    if op == "add":
        return [1.0, 1.0]
    if op == "sub":
        return [1.0, -1.0]
    if op == "mul":
        return [args[1], args[0]]
    if op == "div":
        a, b = args
        return [1.0 / b, -a / (b * b)]
    if op == "sq":
        return [2.0 * args[0]]
    if op == "tanh":
        return [1.0 - out * out]
    if op == "relu":
        return [1.0 if args[0] > 0 else 0.0]
    if op == "neg":
        return [-1.0]
    raise ValueError(f"unknown op {op!r}")


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    stack = []
    for node in graph:
        stack.append(node)
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    while stack:
        name, op, inputs = stack.pop()
        g = grads[name]
        args = [values[i] for i in inputs]
        for i, slope in zip(inputs, _local_slopes(op, args, values[name])):
            grads[i] += g * slope
    return grads
