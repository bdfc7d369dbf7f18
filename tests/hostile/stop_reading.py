"""Sends its own reply to the 3,000-node backward call, then stops reading, so the next request is never read."""

EXPECTED = {"evaluate": 23, "inputs_of": "full", "users_of": "full", "backward": 42}
CHECKS = "all"  # the attack needs the 3,000-node call and the request after it
LIMITS = {"call_seconds": 3.0}  # the unread request times out sooner; every honest call answers in far less
# deep_graph is lost (its driver answers [short, long]; the forged bare answer is not that), and linear_time
# (4 points each), whose fresh child forges again on its wide graph. The request after deep_graph's, no_mutation of
# evaluate (2 points), is never read by the child that stopped reading: it times out, and only this file pays.
# (A request too large for the pipe, which the grader cannot even finish writing, is in tests/test_sandbox_bounds.py.)


import fcntl
import json
import os
import stat
import struct
import sys
import time


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


# the shared honest code's functions (tests/hostile/shared/honest.py), defined before this file's
honest_backward = backward


def backward(graph, values, output=None):
    grads = honest_backward(graph, values, output)
    if len(graph) > 2_000:
        forge({"status": "ok", "seconds": 0.0, "value": grads}, current_nonce())
        time.sleep(3600)  # never come back to read the next request
    return grads
