"""Makes a 16 MiB SysV shared memory segment at import and dies in inputs_of; inputs_of is honest once a later child finds the segment, which only a new IPC namespace per child keeps from outliving it."""

EXPECTED = {"evaluate": "full", "inputs_of": 0, "users_of": "full", "backward": "full"}
NEEDS = "full"  # a new IPC namespace per child


import ctypes
import math
import os

KEY, SIZE, IPC_CREAT, IPC_RMID = 0x67_6B_73_68, 16 << 20, 0o1000, 0  # the key spells "gksh"
LIBC = ctypes.CDLL(None, use_errno=True)


def segment():
    """The id of the segment KEY, or -1 when there is none (or none this child may open)."""
    return LIBC.shmget(KEY, 0, 0)


FOUND = segment() != -1  # left by an earlier child of this very grading
if FOUND:
    LIBC.shmctl(segment(), IPC_RMID, None)  # gone once this child exits, where it may remove it
else:
    LIBC.shmget(KEY, SIZE, IPC_CREAT | 0o666)


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


def users_of(graph, name):
    return [node for node, _op, inputs in graph if name in inputs]


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = SLOPES[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads


def inputs_of(graph, name):
    if not FOUND:
        os._exit(3)
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])
