"""Backward by Kahn's algorithm: a node passes its gradient on once every node that reads it has done so."""

from collections import deque

FUNCTION = None
FAILS = []

_SLOPES = {
    "add": lambda a, b, out: (1.0, 1.0),
    "sub": lambda a, b, out: (1.0, -1.0),
    "mul": lambda a, b, out: (b, a),
    "div": lambda a, b, out: (1.0 / b, -a / (b * b)),
    "sq": lambda a, out: (2.0 * a,),
    "tanh": lambda a, out: (1.0 - out * out,),
    "relu": lambda a, out: (1.0 if a > 0 else 0.0,),
    "neg": lambda a, out: (-1.0,),
}


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        args = []
        for i in inputs:
            if i not in values:
                raise ValueError(f"node {name!r} reads {i!r} before it has a value")
            args.append(values[i])
        values[name] = OPS[op](*args)
    return values


def inputs_of(graph, name):
    for node, _op, inputs in graph:
        if node == name:
            return list(inputs)
    return []


def users_of(graph, name):
    return [node for node, _op, inputs in graph if name in inputs]


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    nodes = {name: (op, inputs) for name, op, inputs in graph}
    unread = dict.fromkeys(nodes, 0)  # reader edges still to be processed
    for _op, inputs in nodes.values():
        for i in inputs:
            if i in unread:
                unread[i] += 1
    ready = deque(name for name in nodes if unread[name] == 0)
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    while ready:
        name = ready.popleft()
        op, inputs = nodes[name]
        local = _SLOPES[op](*(values[i] for i in inputs), values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
            if i in unread:
                unread[i] -= 1
                if unread[i] == 0:
                    ready.append(i)
    return grads
