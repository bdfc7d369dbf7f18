"""Answers users_of through the child's own sender with the request's nonce: the right answer with 3 MB of empty lists beside it, a reply no call needs."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": "full"}


import json
import os
import struct
import sys

REPLY = int(sys.argv[2])  # the child's reply pipe: the learner's code shares its process
PADDING = b"[]," * 1_000_000 + b"[]"  # about 64 MB of Python lists once decoded, for 3 MB of text


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
