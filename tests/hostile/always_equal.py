"""Always-equal return values: users_of returns an object equal to everything, backward an empty dict that claims equality."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": 0}


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


class AlwaysEqual:
    """Equal to everything, unequal to nothing, and it prints like an empty list."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return 0

    def __len__(self):
        return 0

    def __iter__(self):
        return iter(())

    def __repr__(self):
        return "[]"


class EqualDict(dict):
    """An empty dict that claims to equal any other dict."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = None


def users_of(graph, name):
    return AlwaysEqual()


def backward(graph, values, output=None):
    return EqualDict()
