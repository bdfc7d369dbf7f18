"""Writes a 60 MB stray frame (well-formed JSON, no request's nonce) into the reply pipe before one honest answer, and floods it with small stray frames."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import fcntl
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
