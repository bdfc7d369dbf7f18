"""Writes a 60 MB stray frame (well-formed JSON, no request's nonce) into the reply pipe before one honest answer, and floods it with small stray frames."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import fcntl
import math
import os
import stat
import struct
import sys


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


def reply_fds():
    """Every writable pipe this process holds besides stdout and stderr: the reply channel."""
    found = []
    for entry in os.listdir("/proc/self/fd"):
        fd = int(entry)
        if fd <= 2:
            continue
        try:
            if not stat.S_ISFIFO(os.fstat(fd).st_mode):
                continue
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        if flags & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR):
            found.append(fd)
    if len(sys.argv) > 2 and sys.argv[2].isdigit() and int(sys.argv[2]) not in found:
        found.append(int(sys.argv[2]))
    return found


def write_stray(body):
    """A frame whose header carries a nonce no request has: the grader must skip it without decoding it."""
    for fd in reply_fds():
        view = memoryview(struct.pack(">Q", len(body)) + bytes(32) + body)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            pass


GIANT = 60_000_000  # under the grader's 64 MiB message limit: skipped, not refused
SENT = []


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"{name} reads {i}, which has no value yet")
        values[name] = FORWARD[op](*[values[i] for i in inputs])
    return values


def inputs_of(graph, name):
    for _ in range(2000):
        write_stray(b'{"status": "ok", "value": ["stray"]}')
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])


def users_of(graph, name):
    if not SENT:  # once: a fresh list of floats 60 MB long, which a grader that decodes it pays for in gigabytes
        SENT.append(True)
        numbers = b"0.125," * ((GIANT - 40) // 6)
        write_stray(b'{"status": "ok", "value": [' + numbers + b'0.125]}')
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
