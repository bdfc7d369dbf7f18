"""The trusted side of the sandbox: start the child under limits, send calls, read plain replies.

One child serves every call for one submission. A call that times out, crashes the child
or sends a malformed reply fails on its own: the child is killed and a fresh one, with the
learner's code loaded again, answers the next call.
"""

import gc
import json
import os
import resource
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from autograder.sandbox import isolation

CHILD_SCRIPT = Path(__file__).with_name("child.py")
STATUSES = {"ok", "raised", "missing", "unsendable"}


@dataclass(frozen=True)
class Limits:
    call_seconds: float = 10.0  # wall clock per call, unless a check asks for more
    load_seconds: float = 10.0  # wall clock to run the learner's cells or module
    cpu_seconds: int = 300  # CPU time over the child's whole life
    memory_bytes: int = 1 << 30  # address space
    processes: int = 32
    open_files: int = 64
    file_bytes: int = 8 << 20  # largest file the child may write
    message_bytes: int = 64 << 20  # largest reply the parent reads
    output_bytes: int = 32 << 10  # stdout/stderr kept for feedback
    restarts: int = 40  # fresh children per submission before giving up


def _quiet_gc(function, *args, **kwargs):
    """Run a JSON step with the cyclic collector paused: long graphs make many objects, no cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return function(*args, **kwargs)
    finally:
        if enabled:
            gc.enable()


class Channel:
    """Length-prefixed JSON messages over a pair of pipe fds."""

    def __init__(self, read_fd, write_fd, limit):
        self.read_fd, self.write_fd, self.limit = read_fd, write_fd, limit

    def send(self, message):
        data = _quiet_gc(json.dumps, message, separators=(",", ":")).encode()
        view = memoryview(struct.pack(">Q", len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view) :]

    def _read_exact(self, size, deadline):
        parts, got = [], 0
        while got < size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self.read_fd], [], [], left)
            if not ready:
                raise TimeoutError
            part = os.read(self.read_fd, min(1 << 20, size - got))
            if not part:
                raise EOFError
            parts.append(part)
            got += len(part)
        return b"".join(parts)

    def receive(self, seconds):
        deadline = time.monotonic() + seconds
        (size,) = struct.unpack(">Q", self._read_exact(8, deadline))
        if size > self.limit:
            raise ValueError(f"a reply of {size} bytes is over the {self.limit}-byte limit")
        message = _quiet_gc(json.loads, self._read_exact(size, deadline).decode("utf-8"))
        if not isinstance(message, dict):
            raise ValueError("a reply that is not a JSON object")
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


def _limit_child(limits):
    def apply():
        for kind, value in (
            (resource.RLIMIT_CPU, limits.cpu_seconds),
            (resource.RLIMIT_AS, limits.memory_bytes),
            (resource.RLIMIT_NPROC, limits.processes),
            (resource.RLIMIT_NOFILE, limits.open_files),
            (resource.RLIMIT_FSIZE, limits.file_bytes),
            (resource.RLIMIT_CORE, 0),
        ):
            resource.setrlimit(kind, (value, value))

    return apply


class Sandbox:
    """Runs one submission's code chunks in a child process and answers calls on it."""

    def __init__(self, chunks, limits=Limits()):
        self.chunks = [{"label": c.label, "code": c.code} for c in chunks]
        self.limits = limits
        self.load_errors = []
        self.restarts = 0
        self.outputs = []
        self._proc = None
        self._folder = None
        self._unloadable = None  # the reply to give every call once loading has failed

    # -- life cycle -------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _start(self):
        self.restarts += 1
        self._folder = tempfile.mkdtemp(prefix="graphkit-sandbox-")
        script = Path(self._folder) / "child.py"
        shutil.copyfile(CHILD_SCRIPT, script)
        isolation.prepare_folder(self._folder)
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        command = isolation.command_prefix() + [isolation.interpreter(), "-I", "-S", "-B", str(script), str(req_r), str(rep_w)]
        env = {"PATH": "/usr/bin:/bin", "HOME": self._folder, "TMPDIR": self._folder, "LANG": "C.UTF-8"}
        self._proc = subprocess.Popen(
            command,
            cwd=self._folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(req_r, rep_w),
            start_new_session=True,
            preexec_fn=_limit_child(self.limits),
        )
        os.close(req_r)
        os.close(rep_w)
        self._channel = Channel(rep_r, req_w, self.limits.message_bytes)
        self._capture = Capture(self._proc.stdout, self.limits.output_bytes)
        self._capture.start()
        self._channel.send({"chunks": self.chunks})
        reply = self._receive(self.limits.load_seconds)
        if reply.get("status") != "loaded":
            self.load_errors = [{"label": "submission", "type": "LoadFailed", "message": _explain(reply)}]
            return False
        self.load_errors = _plain_errors(reply.get("errors"))
        return True

    def close(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        for fd in (self._channel.read_fd, self._channel.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        self._capture.join(timeout=2)
        self.outputs.append(self._capture.text())
        shutil.rmtree(self._folder, ignore_errors=True)

    def _receive(self, seconds):
        try:
            return self._channel.receive(seconds)
        except TimeoutError:
            self.close()
            return {"status": "timeout", "seconds": seconds}
        except EOFError:
            code = self._proc.wait() if self._proc else None
            self.close()
            return {"status": "died", "exit": code}
        except (ValueError, UnicodeDecodeError) as err:
            self.close()
            return {"status": "invalid", "reason": str(err)[:200]}

    # -- calls ------------------------------------------------------------
    def call(self, fn, args, kwargs=None, seconds=None, **flags):
        """Call `fn(*args, **kwargs)` in the child; return a reply dict of plain values.

        status is one of: ok (with value), raised (with error), missing (no such
        function), timeout, died, invalid, unsendable, unloadable.
        """
        if self._unloadable is not None:
            return dict(self._unloadable)
        if self._proc is None:
            if self.restarts >= self.limits.restarts:
                return {"status": "died", "exit": "too many crashes or timeouts; grading of this submission stopped"}
            if not self._start():
                self._unloadable = {"status": "unloadable", "errors": self.load_errors}
                self.close()
                return dict(self._unloadable)
        request = {"fn": fn, "args": args, "kwargs": kwargs or {}, **flags}
        started = time.perf_counter()
        try:
            self._channel.send(request)
        except (BrokenPipeError, OSError):
            self.close()
            return {"status": "died", "exit": None}
        reply = self._receive(seconds or self.limits.call_seconds)
        reply["wall_seconds"] = time.perf_counter() - started
        if reply.get("status") in STATUSES or reply.get("status") in {"timeout", "died", "invalid"}:
            return reply
        self.close()
        return {"status": "invalid", "reason": f"unknown status {str(reply.get('status'))[:40]!r}"}

    def variable(self, name, seconds=None):
        """The plain value of a global the learner's code defines (an answer cell's variable)."""
        return self.call(name, [], seconds=seconds, var=name)

    def output(self):
        """Everything the child printed (capped), over every child this sandbox started."""
        if self._proc is not None:
            return "".join(self.outputs) + self._capture.text()
        return "".join(self.outputs)


def _explain(reply):
    status = reply.get("status")
    if status == "timeout":
        return f"running your code took longer than {reply['seconds']:.0f} s before any function was called"
    if status == "died":
        return f"the process running your code exited while loading it (exit status {reply.get('exit')})"
    return f"the process running your code sent an unreadable reply ({reply.get('reason', status)})"


def _plain_errors(errors):
    """Keep only well-formed load errors: dicts of short strings."""
    kept = []
    for error in errors if isinstance(errors, list) else []:
        if isinstance(error, dict):
            kept.append({k: str(error.get(k, ""))[:500] for k in ("label", "type", "message", "where")})
    return kept[:50]
