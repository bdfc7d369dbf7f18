"""Returns values that strain the judge: 400-digit ints, lists nested 500 deep, a forged frame nested 100,000 deep, bools, None, NaN and inf."""

EXPECTED = {"evaluate": 0, "inputs_of": "full", "users_of": 0, "backward": 0}


import fcntl
import json
import os
import stat
import struct
import sys


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


STRAY = bytes(32)  # a nonce no request carries


def current_nonce():
    """The nonce of the request (or the first message) the child is answering, found in a caller's frame."""
    frame = sys._getframe(1)
    while frame is not None:
        value = frame.f_locals.get("nonce")
        if isinstance(value, bytes) and len(value) == 32:
            return value
        frame = frame.f_back
    return STRAY


def write_frame(data, nonce=STRAY):
    """A frame as the child writes one: the body's length (8 bytes), the nonce (32 bytes), then the body."""
    for fd in reply_fds():
        view = memoryview(struct.pack(">Q", len(data)) + nonce + data)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            pass


def forge(message, nonce=STRAY):
    write_frame(json.dumps(message).encode(), nonce)


def evaluate(graph, leaves):
    """A 400-digit integer for every node: too large for a float."""
    values = dict(leaves)
    for name, _op, _inputs in graph:
        values[name] = 10**400
    return values


def nested(depth):
    value = ["x"]
    for _ in range(depth):
        value = [value]
    return value


def users_of(graph, name):
    """A forged reply nested 100,000 deep, then a returned list nested 500 deep."""
    text = json.dumps({"status": "ok", "seconds": 0.0, "value": "@"})
    write_frame(text.replace('"@"', "[" * 100_000 + "]" * 100_000).encode(), current_nonce())
    return nested(500)


def backward(graph, values, output=None):
    odd = (True, float("nan"), float("inf"), -float("inf"), None)
    return {name: odd[index % len(odd)] for index, name in enumerate(values)}
