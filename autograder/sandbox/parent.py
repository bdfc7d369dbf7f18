"""The trusted side of the sandbox: start the child under limits, send calls, read plain replies.

One child serves every call for one submission. A call that times out, crashes the child
or sends a malformed reply fails on its own: the child is killed and a fresh one, with the
learner's code loaded again, answers the next call.

The learner's code runs in the same process as the child script, so it can write to the
reply pipe itself. Nothing it sends is trusted: every request carries a fresh random nonce,
and only a reply carrying that nonce answers it (stray frames and late replies to earlier
requests are skipped); the reply is then rebuilt field by field from plain values, so a
forged reply can say no more than the learner's function could have returned.
"""

import gc
import json
import os
import resource
import secrets
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
STATUSES = {"ok", "raised", "missing", "unsendable"}  # what a child may answer a call with
MAX_DEPTH = 16  # a reply nested deeper than this is not an answer (a graph argument is 4 deep)


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


def _too_deep(value, limit=MAX_DEPTH):
    """Whether lists and dicts nest more than `limit` levels (checked level by level, without recursion)."""
    level, depth = [value], 0
    while level:
        if depth > limit:
            return True
        deeper = []
        for item in level:
            deeper += [c for c in (item.values() if type(item) is dict else item) if type(c) is dict or type(c) is list]
        level, depth = deeper, depth + 1
    return False


class Channel:
    """Length-prefixed JSON messages over a pair of pipe fds, every step under a deadline."""

    def __init__(self, read_fd, write_fd, limit):
        self.read_fd, self.write_fd, self.limit = read_fd, write_fd, limit
        os.set_blocking(write_fd, False)  # a child that stops reading must not block the parent

    def send(self, message, deadline):
        data = _quiet_gc(json.dumps, message, separators=(",", ":")).encode()
        view = memoryview(struct.pack(">Q", len(data)) + data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            _, ready, _ = select.select([], [self.write_fd], [], left)
            if not ready:
                raise TimeoutError
            try:
                view = view[os.write(self.write_fd, view) :]
            except BlockingIOError:
                continue

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

    def receive(self, deadline, nonce):
        """The next message carrying `nonce`; well-formed messages without it are skipped."""
        while True:
            (size,) = struct.unpack(">Q", self._read_exact(8, deadline))
            if size > self.limit:
                raise ValueError(f"a reply of {size} bytes is over the {self.limit}-byte limit")
            try:
                message = _quiet_gc(json.loads, self._read_exact(size, deadline).decode("utf-8"))
            except RecursionError:
                raise ValueError("a reply nested too deeply to read") from None
            if not isinstance(message, dict):
                raise ValueError("a reply that is not a JSON object")
            if message.get("nonce") != nonce:
                continue  # written by the learner's code, or the late reply to an earlier request
            if _too_deep(message):
                raise ValueError(f"a reply nested more than {MAX_DEPTH} levels deep")
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
        uid = isolation.new_uid()
        isolation.prepare_folder(self._folder, uid)
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        command = isolation.command_prefix(self._folder, uid) + [
            isolation.interpreter(), "-I", "-S", "-B", "-u", str(script), str(req_r), str(rep_w),
        ]  # fmt: skip
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
        reply = self._exchange({"chunks": self.chunks}, self.limits.load_seconds, {"loaded"})
        if reply.get("status") != "loaded":
            self.load_errors = [{"label": "submission", "type": "LoadFailed", "message": _explain(reply)}]
            return False
        self.load_errors = reply["errors"]
        return True

    def close(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        isolation.sweep(self._folder)
        proc.wait()
        for fd in (self._channel.read_fd, self._channel.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        self._capture.join(timeout=2)
        self.outputs.append(self._capture.text())
        shutil.rmtree(self._folder, ignore_errors=True)

    def _exchange(self, message, seconds, statuses):
        """Send one message tagged with a fresh nonce and return the child's clean reply to it."""
        nonce = secrets.token_hex(16)
        deadline = time.monotonic() + seconds
        try:
            self._channel.send({**message, "nonce": nonce}, deadline)
            reply = _clean(self._channel.receive(deadline, nonce), statuses)
        except TimeoutError:
            self.close()
            return {"status": "timeout", "seconds": seconds}
        except (EOFError, OSError):  # the child closed its end of a pipe: it has exited, or it must
            try:
                code = self._proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
            self.close()
            return {"status": "died", "exit": code}
        except (ValueError, UnicodeDecodeError) as err:
            reply = {"status": "invalid", "reason": str(err)[:200]}
        if reply["status"] == "invalid":
            self.close()
        return reply

    # -- calls ------------------------------------------------------------
    def call(self, fn, args, kwargs=None, seconds=None, measure_cpu=False, **flags):
        """Call `fn(*args, **kwargs)` in the child; return a reply dict of plain values.

        status is one of: ok (with value), raised (with error), missing (no such
        function), timeout, died, invalid, unsendable, unloadable. With measure_cpu, the
        reply also holds cpu_seconds, the CPU time of the child's process tree during the call.
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
        started, cpu_before = time.perf_counter(), (self._tree_cpu_seconds() if measure_cpu else 0.0)
        reply = self._exchange(request, seconds or self.limits.call_seconds, STATUSES)
        reply["wall_seconds"] = time.perf_counter() - started
        if measure_cpu and self._proc is not None:  # read by the parent from /proc: the child cannot fake it
            reply["cpu_seconds"] = self._tree_cpu_seconds() - cpu_before
        return reply

    def _tree_cpu_seconds(self):
        """CPU time (user + system) used so far by the child's whole process tree, read from /proc."""
        if self._proc is None:
            return 0.0
        ticks, todo, seen = 0, [self._proc.pid], set()
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            try:
                with open(f"/proc/{pid}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children", "rb") as children:
                        todo.extend(int(child) for child in children.read().split())
            except (OSError, ValueError, IndexError):
                continue
        return ticks / os.sysconf("SC_CLK_TCK")

    def variable(self, name, seconds=None):
        """The plain value of a global the learner's code defines (an answer cell's variable)."""
        return self.call(name, [], seconds=seconds, var=name)

    def output(self):
        """Everything the child printed (capped), over every child this sandbox started."""
        if self._proc is not None:
            return "".join(self.outputs) + self._capture.text()
        return "".join(self.outputs)


def _text(value, limit):
    return value[:limit] if type(value) is str else ""


def _clean(message, statuses):
    """Rebuild a child's message from the fields its status allows, each of the right plain type."""
    status = message.get("status")
    if type(status) is not str or status not in statuses:
        return {"status": "invalid", "reason": f"unknown status {_text(str(status), 40)!r}"}
    reply = {"status": status}
    seconds = message.get("seconds")
    if type(seconds) in (int, float) and 0 <= seconds < 1e9:  # exact comparisons: no overflow, NaN fails
        reply["seconds"] = float(seconds)
    if status == "loaded":
        reply["errors"] = _plain_errors(message.get("errors"))
    elif status == "ok":
        if "value" not in message:
            return {"status": "invalid", "reason": "an answer without a value"}
        reply["value"] = message["value"]
    elif status in ("raised", "unsendable"):
        error = message.get("error")
        error = error if type(error) is dict else {}
        reply["error"] = {
            "type": _text(error.get("type"), 100),
            "value_error": error.get("value_error") is True,
            "message": _text(error.get("message"), 500),
            "where": _text(error.get("where"), 200),
        }
    if status in ("ok", "raised") and "args_after" in message:
        reply["args_after"] = message["args_after"]
    return reply


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
            error = {k: _text(error.get(k), 500) for k in ("label", "type", "message", "where")}
            if any(error.values()):
                kept.append(error)
    return kept[:50]
