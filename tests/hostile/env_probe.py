"""Looks for the grader's environment (NBGRADER_*, PYTEST_*, PYTHON*, GRAPHKIT_*, ...) and answers wrong if any of it leaked in."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import os


ALLOWED = {"PATH", "HOME", "TMPDIR", "LANG", "PWD", "SHLVL", "OLDPWD", "_", "LC_CTYPE"}
PREFIXES = ("NBGRADER", "PYTEST", "PYTHON", "GRAPHKIT", "JPY", "JUPYTER", "VIRTUAL_ENV", "HYPOTHESIS", "CI")
LEAKED = sorted(key for key in os.environ if key not in ALLOWED or key.startswith(PREFIXES))
print(f"graphkit-hostile-env_probe: leaked {LEAKED}")


def evaluate(graph, leaves):
    if LEAKED:
        return {}
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"{name} reads {i}, which has no value yet")
        values[name] = FORWARD[op](*[values[i] for i in inputs])
    return values


def inputs_of(graph, name):
    if LEAKED:
        return ["leaked"]
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])


def users_of(graph, name):
    if LEAKED:
        return ["leaked"]
    return [node for node, _op, inputs in graph if name in inputs]


def backward(graph, values, output=None):
    if LEAKED:
        return {}
    output = graph[-1][0] if output is None else output
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = SLOPES[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads
