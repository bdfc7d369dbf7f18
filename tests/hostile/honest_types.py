"""Honest values in unusual types (float and str subclasses, defaultdict, OrderedDict, list subclass, tuple, ints); must earn full marks."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import collections
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


class Number(float):
    """A float subclass that is honest about its value."""

    def __repr__(self):
        return f"Number({float(self)!r})"


class Name(str):
    """A str subclass that is honest about its text."""


class Names(list):
    """A list subclass."""


def evaluate(graph, leaves):
    values = collections.defaultdict(float)
    values.update(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"{name} reads {i}, which has no value yet")
        result = FORWARD[op](*[values[i] for i in inputs])
        values[Name(name)] = result if isinstance(result, int) else Number(result)
    return values


def inputs_of(graph, name):
    for node, _op, inputs in graph:
        if node == name:
            return Names(Name(i) for i in inputs)
    return Names()


def users_of(graph, name):
    return tuple(Name(node) for node, _op, inputs in graph if name in inputs)


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    grads = collections.OrderedDict((name, 0) for name in values)  # int 0 where nothing flows
    grads[output] = 1
    for name, op, inputs in reversed(graph):
        local = SLOPES[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] = Number(grads[i] + grads[name] * slope)
    return grads
