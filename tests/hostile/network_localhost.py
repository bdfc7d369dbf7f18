"""Asks a helper listening on 127.0.0.1 for users_of's answers; with no network its answers are wrong."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": "full"}
NEEDS = "full"  # only the full sandbox cuts the network


import json
import math
import socket


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


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = SLOPES[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads


PORTS = (47611, 47612, 47613, 47614)


def ask(graph, name):
    for port in PORTS:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as connection:
                connection.sendall(json.dumps({"graph": graph, "name": name}).encode() + b"\n")
                data = b""
                while not data.endswith(b"\n"):
                    part = connection.recv(65536)
                    if not part:
                        break
                    data += part
                return json.loads(data)
        except (OSError, ValueError):
            continue
    return None


def users_of(graph, name):
    answer = ask([[node, op, list(inputs)] for node, op, inputs in graph], name)
    return answer if answer is not None else ["no network"]
