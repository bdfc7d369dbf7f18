"""An evaluate that raises ValueError for every graph, right or wrong, so the wrong-order checks alone cannot pay it."""

EXPECTED = {"evaluate": 0, "inputs_of": "full", "users_of": "full", "backward": "full"}


import math


SLOPES = {
    "add": lambda a, b, out: (1.0, 1.0),
    "sub": lambda a, b, out: (1.0, -1.0),
    "mul": lambda a, b, out: (b, a),
    "div": lambda a, b, out: (1.0 / b, -a / (b * b)),
    "sq": lambda a, out: (2.0 * a,),
    "tanh": lambda a, out: (1.0 - out * out,),
    "relu": lambda a, out: (1.0 if a > 0 else 0.0,),
    "neg": lambda a, out: (-1.0,),
}


def inputs_of(graph, name):
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])


def users_of(graph, name):
    return [node for node, _op, inputs in graph if name in inputs]


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = SLOPES[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads


def evaluate(graph, leaves):
    raise ValueError("every graph is listed in the wrong order")
