"""Raises the recursion limit to 10**6 in backward and recurses through C, which would overflow the interpreter's stack (a segfault): the child holds the limit at 1,000, so backward raises RecursionError."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}


import math
import sys


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


class Abyss:
    """Every attribute lookup looks itself up again, one C stack frame deeper."""

    def __getattr__(self, name):
        return getattr(self, name)


def backward(graph, values, output=None):
    sys.setrecursionlimit(10**6)
    return Abyss().gradients
