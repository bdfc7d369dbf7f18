"""Accumulates gradients in a defaultdict(float), then reports every name in values."""

from collections import defaultdict

FUNCTION = None
FAILS = []


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        try:
            args = [values[i] for i in inputs]
        except KeyError as err:
            raise ValueError(f"node {name!r} reads {err.args[0]!r}, which has no value yet") from None
        values[name] = OPS[op](*args)
    return values


def inputs_of(graph, name):
    by_name = {node: inputs for node, _op, inputs in graph}
    return list(by_name.get(name, []))


def users_of(graph, name):
    readers = {}
    for node, _op, inputs in graph:
        if name in inputs:
            readers[node] = True
    return list(readers)


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    acc = defaultdict(float)
    acc[output] = 1.0
    for name, op, inputs in reversed(graph):
        g = acc[name]
        if op in ("add", "sub"):
            acc[inputs[0]] += g
            acc[inputs[1]] += g if op == "add" else -g
        elif op == "mul":
            a, b = (values[i] for i in inputs)
            acc[inputs[0]] += g * b
            acc[inputs[1]] += g * a
        elif op == "div":
            a, b = (values[i] for i in inputs)
            acc[inputs[0]] += g / b
            acc[inputs[1]] += -g * a / (b * b)
        elif op == "sq":
            acc[inputs[0]] += g * 2.0 * values[inputs[0]]
        elif op == "tanh":
            acc[inputs[0]] += g * (1.0 - values[name] ** 2)
        elif op == "relu":
            acc[inputs[0]] += g if values[inputs[0]] > 0 else 0.0
        elif op == "neg":
            acc[inputs[0]] -= g
    result = {name: acc.get(name, 0.0) for name in values}
    result[output] = acc[output]
    return result
