"""Spins forever (while True: pass) in backward; evaluate, inputs_of and users_of stay honest."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}
LIMITS = {"call_seconds": 3.0, "struck_call_seconds": 0.3}  # timeouts scaled by 0.3: each call of backward still times out


import math


FORWARD = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "sq": lambda a: a * a,
    "tanh": lambda a: math.tanh(a),
    "relu": lambda a: a if a > 0 else 0.0,
    "neg": lambda a: -a,
}


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"{name} reads {i}, which has no value yet")
        values[name] = FORWARD[op](*[values[i] for i in inputs])
    return values


def inputs_of(graph, name):
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])


def users_of(graph, name):
    return [node for node, _op, inputs in graph if name in inputs]


def backward(graph, values, output=None):
    while True:
        pass
