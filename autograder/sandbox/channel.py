"""The sandbox's pipes: frames to and from the child, each under a deadline, and the child's output, capped.

The learner's code runs in the same process as the child script, so it can write to the
reply pipe itself. Nothing it sends is trusted: every request carries a fresh random nonce
in its frame header, and only a frame carrying that nonce answers it. Any other frame (stray
frames, late replies to earlier requests) is skipped by its header: its body is read and
dropped in bounded chunks, never decoded, and a frame longer than Limits.message_bytes is
refused by its length alone. A frame carrying the nonce is held, before it is decoded, to what
its call can need (autograder/sandbox/reply_bounds.py): its length, then its items, then its
depth and its strings' lengths.
"""

import array
import gc
import hmac
import json
import os
import select
import struct
import threading
import time

from autograder.sandbox import reply_bounds

MAX_DEPTH = 16  # a reply nested deeper than this is not an answer (a graph argument is 4 deep)
MAX_TEXT = 10_000  # characters in one string of a reply: names and answers are short; messages are cut by the child
HEADER = struct.Struct(">Q32s")  # a frame's header: the body's length, then the nonce it belongs to
CHUNK = 1 << 20  # bytes read from a pipe at a time
CONTAINERS = {dict, list}  # exact types


def quiet_gc(function, *args, **kwargs):
    """Run one step with the cyclic collector paused: long graphs make many objects and no cycles.

    With the collector running, building or decoding a 200,000-node graph costs two to five times as long.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return function(*args, **kwargs)
    finally:
        if enabled:
            gc.enable()


def out_of_bounds(value, depth_limit=MAX_DEPTH, text_limit=MAX_TEXT):
    """Why a decoded reply is no answer (nested too deep, or a string too long to be a name), or "".

    Checked level by level, without recursion; a long list of numbers is passed over at C speed.
    """
    level, depth = [value], 0
    while level:
        if depth > depth_limit:
            return f"a reply nested more than {depth_limit} levels deep"
        deeper = []
        for item in level:
            children = item.values() if type(item) is dict else item
            if type(item) is dict and item and max(map(len, item)) > text_limit:
                return f"a reply holding a name of more than {text_limit:,} characters"
            kinds = set(map(type, children))
            if str in kinds and max(len(c) for c in children if type(c) is str) > text_limit:
                return f"a reply holding a string of more than {text_limit:,} characters"
            if CONTAINERS & kinds:
                deeper += [c for c in children if type(c) is dict or type(c) is list]
        level, depth = deeper, depth + 1
    return ""


FLOATS_MARK = b"F"  # a reply body of JSON then native doubles (autograder/sandbox/child.py), not JSON text alone


def floats_split(body):
    """(the JSON part, the list of floats after it or None) of a reply body.

    Only the byte layout is read here: the doubles become Python floats, which the reply's
    checks then treat as the "values" a JSON reply would give, one per name of the call.
    """
    if body[:1] != FLOATS_MARK:
        return body, None
    if len(body) < 9:
        raise ValueError("a reply cut off before its JSON part")
    length = int.from_bytes(body[1:9], "big")
    tail = len(body) - 9 - length
    if length > len(body) - 9 or tail % 8:
        raise ValueError("a reply whose doubles do not fill whole 8-byte numbers")
    floats = array.array("d")
    floats.frombytes(body[9 + length :])
    return body[9 : 9 + length], floats.tolist()


class Channel:
    """Frames (HEADER, then a JSON body) over a pair of pipe fds, every step under a deadline."""

    def __init__(self, read_fd, write_fd, limit):
        self.read_fd, self.write_fd, self.limit = read_fd, write_fd, limit
        os.set_blocking(write_fd, False)  # a child that stops reading must not block the parent

    def send(self, message, nonce, deadline):
        data = quiet_gc(json.dumps, message, separators=(",", ":")).encode()
        view = memoryview(HEADER.pack(len(data), nonce) + data)
        while view:
            self._wait(self.write_fd, deadline, writing=True)
            try:
                view = view[os.write(self.write_fd, view) :]
            except BlockingIOError:
                continue

    @staticmethod
    def _wait(fd, deadline, writing=False):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        ready = select.select([], [fd], [], left)[1] if writing else select.select([fd], [], [], left)[0]
        if not ready:
            raise TimeoutError

    def _read_into(self, buffer, deadline):
        """Fill `buffer` (a memoryview) from the reply pipe, at most CHUNK bytes per read."""
        got = 0
        while got < len(buffer):
            self._wait(self.read_fd, deadline)
            count = os.readv(self.read_fd, [buffer[got : got + CHUNK]])
            if not count:
                raise EOFError
            got += count

    def _skip(self, size, deadline):
        """Read `size` bytes and drop them, one bounded chunk at a time."""
        scratch = memoryview(bytearray(min(size, CHUNK)))
        while size:
            part = scratch[: min(size, CHUNK)]
            self._read_into(part, deadline)
            size -= len(part)

    def receive(self, deadline, nonce, bound):
        """The body of the next frame carrying `nonce`, as a dict; frames without it are skipped unread.

        The frame is refused by its length when it is over what the call can need (`bound`, a
        reply_bounds.Bound), and by its count of items before its JSON is decoded.
        """
        while True:
            header = bytearray(HEADER.size)
            self._read_into(memoryview(header), deadline)
            size, tag = HEADER.unpack(header)
            if size > self.limit:
                raise ValueError(f"a reply of {size} bytes is over the {self.limit}-byte limit")
            if not hmac.compare_digest(tag, nonce):
                self._skip(size, deadline)  # written by the learner's code, or a late reply: never decoded
                continue
            if size > bound.bytes:
                raise ValueError(
                    f"a reply of {size:,} bytes is over the {bound.bytes:,}-byte limit of what this call can need"
                )
            body = bytearray(size)
            self._read_into(memoryview(body), deadline)
            body, floats = floats_split(body)
            items = reply_bounds.items_in(body)
            if items > bound.items:
                raise ValueError(
                    f"a reply of {items:,} items is over the {bound.items:,}-item limit of what this call can need"
                )
            try:
                message = quiet_gc(json.loads, body)
            except RecursionError:
                raise ValueError("a reply nested too deeply to read") from None
            if not isinstance(message, dict):
                raise ValueError("a reply that is not a JSON object")
            if floats is not None:
                if "values" in message:
                    raise ValueError("a reply with its values given twice")
                message["values"] = floats
            problem = out_of_bounds(message)
            if problem:
                raise ValueError(problem)
            return message


class Capture(threading.Thread):
    """Drain one output pipe, keeping the first `limit` bytes and counting the rest."""

    def __init__(self, stream, limit):
        super().__init__(daemon=True)
        self.stream, self.limit, self.kept, self.dropped = stream, limit, bytearray(), 0

    def run(self):
        while True:
            block = self.stream.read1(1 << 16) if hasattr(self.stream, "read1") else self.stream.read(1 << 16)
            if not block:
                return
            room = self.limit - len(self.kept)
            self.kept += block[:room]
            self.dropped += max(0, len(block) - room)

    def text(self):
        text = self.kept.decode("utf-8", "replace")
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of output not kept]"
        return text
