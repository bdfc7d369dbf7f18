"""Honest values in unusual types (float and str subclasses, defaultdict, OrderedDict, list subclass, tuple, ints); must earn full marks."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import collections


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
