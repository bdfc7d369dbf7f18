"""Answers users_of through the child's own sender with the request's nonce: the right answer with 3 MB of empty lists beside it, a reply no call needs."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": "full"}


import json
import math
import os
import struct
import sys

REPLY = int(sys.argv[2])  # the child's reply pipe: the learner's code shares its process
PADDING = b"[]," * 1_000_000 + b"[]"  # about 64 MB of Python lists once decoded, for 3 MB of text


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


def current_nonce():
    """The nonce of the request being answered, found in the child's own frames."""
    frame = sys._getframe(1)
    while frame is not None:
        value = frame.f_locals.get("nonce")
        if isinstance(value, bytes) and len(value) == 32:
            return value
        frame = frame.f_back
    raise LookupError("no nonce")


def users_of(graph, name):
    answer = [node for node, _op, inputs in graph if name in inputs]
    body = b'{"status": "ok", "seconds": 0.0, "value": ' + json.dumps(answer).encode() + b', "padding": [' + PADDING + b"]}"
    view = memoryview(struct.pack(">Q", len(body)) + current_nonce() + body)
    while view:
        view = view[os.write(REPLY, view):]
    return answer
