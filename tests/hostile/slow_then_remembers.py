"""Spends between one and two times the CPU time linear_time allows on its first call with the wide graph, then remembers the answer and gives it at once to any later call in the same process: a retry in the same child would pass it."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 46}
CHECKS = "all"  # the attack is on linear_time (4 points of backward); every other answer is right


import json
import math
import time

REMEMBERED = {}  # the wide graph's answer, kept for the next call


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


def burn(seconds):
    """Spend `seconds` of CPU time in this process."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


def sweep(graph, values, output):
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = SLOPES[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    if not 1000 < len(graph) < 100_000:
        return sweep(graph, values, output)
    key = (len(graph), output)
    if key in REMEMBERED:
        return dict(REMEMBERED[key])
    # What the grader allows: 25 times the CPU time of a linear call (reading the request, the sweep, writing the
    # answer, each done again here to time it) + 0.25 s, which comes out above the grader's own figure. Spend 1.1 times it:
    # over the limit, under the wall-clock stop at twice it.
    started = time.process_time()
    json.loads(json.dumps([[list(node) for node in graph], values]))
    grads = sweep(graph, values, output)
    json.dumps(list(grads.values()))
    allowed = 25 * (time.process_time() - started) + 0.25
    burn(1.1 * allowed - (time.process_time() - started))
    REMEMBERED[key] = dict(grads)
    return grads
