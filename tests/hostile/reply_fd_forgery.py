"""Writes well-formed reply frames with wrong answers straight into the reply pipe (found in /proc/self/fd), stray and tied to the request."""

EXPECTED = {"evaluate": "full", "inputs_of": 0, "users_of": 0, "backward": "full"}


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


forge({"status": "loaded", "errors": []})  # a stray frame tied to nothing
forge({"status": "loaded", "errors": [{"label": "forged", "type": "Forged", "message": "a forged load error"}]}, current_nonce())
for _ in range(5):
    forge({"status": "ok", "seconds": 0.0, "value": ["forged"]})  # stray answers waiting for later calls


def inputs_of(graph, name):
    """Corrupts the framing: a frame whose body is not JSON."""
    write_frame(b"{not json}")  # tied to nothing: skipped unread
    write_frame(b"{not json}", current_nonce())
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])


def users_of(graph, name):
    """Answers first with a forged wrong reply tied to the request, then returns the right answer."""
    forge({"status": "ok", "seconds": 0.0, "value": ["forged"]}, current_nonce())
    return [node for node, _op, inputs in graph if name in inputs]
