"""The trusted side of the sandbox: start the child under limits, send calls, read plain replies.

One child serves every call for one submission. A call that times out, crashes the child
or sends a malformed reply fails on its own: the child is killed and a fresh one, with the
learner's code loaded again, answers the next call. All the calls of one submission share a
wall-clock budget (Limits.submission_seconds): once it is spent, every call left fails at once.

The learner's code runs in the same process as the child script, so it can write to the
reply pipe itself. Nothing it sends is trusted: every request carries a fresh random nonce
in its frame header, and only a frame carrying that nonce answers it. Any other frame (stray
frames, late replies to earlier requests) is skipped by its header: its body is read and
dropped in bounded chunks, never decoded, and a frame longer than Limits.message_bytes is
refused by its length alone. A frame carrying the nonce is held, before it is decoded, to what
its call can need (autograder/sandbox/reply_bounds.py): its length, then its items. The reply is
then rebuilt field by field from plain values, so a forged reply can say no more than the
learner's function could have returned.

Closing a sandbox kills every process of the child before it returns: the PID namespace in
full isolation, and the child's cgroup (or, where none can be made, its process group and a
sweep) with limits only. The child's folder is removed by remove_tree, which never raises.
"""

import array
import functools
import gc
import hmac
import json
import os
import resource
import secrets
import select
import signal
import struct
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from autograder.course import active
from autograder.sandbox import cgroups, isolation, landlock, patience, reply_bounds
from autograder.sandbox.removal import remove_tree

HERE = Path(__file__).parent
CHILD = HERE / "child.py"  # the child's own code, run after the course's child parts (autograder.course.active)
STATUSES = {"ok", "raised", "missing", "unsendable"}  # what a child may answer a call with
READY = {"ready"}  # what a fresh child answers before it loads anything, when its memory is to be measured
MAX_DEPTH = 16  # a reply nested deeper than this is not an answer (a graph argument is 4 deep)
MAX_TEXT = 10_000  # characters in one string of a reply: names and answers are short; messages are cut by the child
HEADER = struct.Struct(">Q32s")  # a frame's header: the body's length, then the nonce it belongs to
CHUNK = 1 << 20  # bytes read from a pipe at a time
CONTAINERS, NUMBERS = {dict, list}, {int, float}  # exact types


@dataclass(frozen=True)
class Limits:
    call_seconds: float = 10.0  # wall clock per call, unless a check asks for more
    struck_call_seconds: float = 1.0  # per call of a function that has timed out once: a right answer needs far less
    struck_large_call_seconds: float = 5.0  # and for its calls that ask for more (the largest graphs)
    longest_call_seconds: float = 60.0  # no call runs longer, whatever its check asks
    load_seconds: float = 10.0  # wall clock to run the learner's cells or module
    submission_seconds: float = 60.0  # wall clock for every call, load and restart of one submission together
    cpu_seconds: int = 300  # CPU time over the child's whole life
    memory_bytes: int = 1 << 30  # address space, per process
    sandbox_memory_bytes: int = 5 << 28  # every process of one child together, its folder's files included (cgroup)
    processes: int = 32  # of one child together (cgroup pids.max, RLIMIT_NPROC); fewer where no cgroup caps memory
    open_files: int = 64
    file_bytes: int = 8 << 20  # largest file the child may write
    folder_bytes: int = 64 << 20  # everything in the child's folder together (full isolation: a tmpfs of this size)
    folder_files: int = 4096  # files and folders in the child's folder (full isolation)
    message_bytes: int = 64 << 20  # largest frame the parent reads; a reply is held to what its call needs, below this
    output_bytes: int = 32 << 10  # stdout/stderr kept for feedback
    restarts: int = 40  # fresh children per submission before giving up


@functools.lru_cache(maxsize=1)
def child_script():
    """The child's script: the course's child parts, then child.py (all standard library only)."""
    return "\n\n".join(part.read_text(encoding="utf-8") for part in (*active.child_parts(), CHILD))


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


def _out_of_bounds(value, depth_limit=MAX_DEPTH, text_limit=MAX_TEXT):
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


def _floats_split(body):
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
    floats.frombytes(body[9 + length:])
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
                raise ValueError(f"a reply of {size:,} bytes is over the {bound.bytes:,}-byte limit of what this call can need")
            body = bytearray(size)
            self._read_into(memoryview(body), deadline)
            body, floats = _floats_split(body)
            items = reply_bounds.items_in(body)
            if items > bound.items:
                raise ValueError(f"a reply of {items:,} items is over the {bound.items:,}-item limit of what this call can need")
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
            problem = _out_of_bounds(message)
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


def tree_processes(limits, group):
    """How many processes one child may have at once: Limits.processes where its cgroup caps their memory
    together; elsewhere only as many as Limits.sandbox_memory_bytes holds at Limits.memory_bytes each (two at least)."""
    if group is not None and group.memory_capped:
        return limits.processes
    return max(2, min(limits.processes, limits.sandbox_memory_bytes // limits.memory_bytes))


def _prepare_child(limits, group, processes, process_limit=True, writable=None):
    """What the child runs between fork and exec: join its own cgroups (if any), then take its limits.

    Without `process_limit` the process limit is set later, inside the child's user namespace, where it
    counts that namespace's processes alone (a limit set here would count every process of the grader's user).
    With `writable` (limits mode, where the kernel has Landlock), the child may write only beneath that
    folder from then on: a failure to set that up ends the child before it runs anything.
    """

    def apply():
        if group is not None:
            try:
                group.join()
            except OSError:
                pass  # the parent sees the child is not in the groups and does without them
        for kind, value in (
            (resource.RLIMIT_CPU, limits.cpu_seconds),
            (resource.RLIMIT_AS, limits.memory_bytes),
            (resource.RLIMIT_NPROC, processes if process_limit else None),
            (resource.RLIMIT_NOFILE, limits.open_files),
            (resource.RLIMIT_FSIZE, limits.file_bytes),
            (resource.RLIMIT_CORE, 0),
        ):
            if value is not None:
                resource.setrlimit(kind, (value, value))
        if writable is not None:
            landlock.restrict(writable)  # last: joining the cgroups above writes outside the folder

    return apply


def tree_cpu_seconds(pid):
    """CPU time (user + system) of `pid` and every process below it, read from /proc.

    Each process counts its own time and that of the children it has waited for (cutime,
    cstime); a child not yet waited for is still in the tree, as a zombie, with its own time.
    Only a child whose exit nobody waits for (SIGCHLD ignored) takes its time away: the
    sandbox counts CPU through a cgroup where it can (cgroups.cgroup_base).
    """
    ticks = 0
    for member in tree_pids(pid):  # each parent before its children
        try:
            with open(f"/proc/{member}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            ticks += sum(int(field) for field in fields[11:15])  # utime, stime, cutime, cstime
        except (OSError, ValueError, IndexError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_pids(pid):
    """`pid` and every process below it now, from /proc."""
    todo, seen = [pid], []
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as children:
                    todo.extend(int(child) for child in children.read().split())
        except (OSError, ValueError):
            continue
    return seen


_LEARNER_CODE_RAN = []  # set once a sandbox of this process has loaded code other than the course's references


def learner_code_ran():
    """Whether this process has started a child that ran a learner's code (files it writes are then suspect)."""
    return bool(_LEARNER_CODE_RAN)


_RUNNING = {}  # id(sandbox) -> sandbox, for every sandbox of this process whose child runs


def close_all():
    """Close every sandbox of this process whose child still runs (killing all it started); how many there were.

    A grader calls it before it writes results, so that no learner process exists when the file is made.
    """
    running = list(_RUNNING.values())
    for sandbox in running:
        sandbox.close()
    return len(running)


class Sandbox:
    """Runs one submission's code chunks in a child process and answers calls on it.

    `reference`: the chunks are the course's own references, not a learner's (learner_code_ran stays as it is).
    """

    def __init__(self, chunks, limits=Limits(), reference=False):
        self.chunks = [{"label": c.label, "code": c.code} for c in chunks]
        self.limits = limits
        self.reference = reference
        self.load_errors = []
        self.restarts = 0
        self.outputs = []
        self._proc = None
        self._folder = None
        self._group = None  # the child's own cgroups (cgroups.Group: CPU time, kill, memory and processes), or None
        self._unloadable = None  # the reply to give every call once loading has failed
        self._load_mark = None  # a memory mark taken before the learner's code loaded (see call's measure_memory)
        self._budget_end = None  # when the submission's time budget runs out (time.monotonic), from its first call
        self._budget_start = None  # and when it started, with this thread's CPU waiting then (patience.own_waited)
        self._waited = 0.0  # seconds the children closed so far waited for a CPU (patience.waited)
        self._granted = 0.0  # seconds of such waiting already added to the budget

    # -- life cycle -------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _start(self, mark_memory=False):
        """Start a child and load the learner's code; None when loaded, else the failed load's reply.

        With `mark_memory`, the child's memory is marked once it is up and before it runs anything of the
        learner's (self._load_mark; None where no memory cgroup holds it), so that what the learner's code
        does to the allocator while it loads is counted, not hidden. Raises isolation.IsolationError when
        full isolation is not available and weaker was not asked for.
        """
        isolation.mode()
        if not self.reference:
            _LEARNER_CODE_RAN[:] = [True]
        _RUNNING[id(self)] = self
        self.restarts += 1
        self._folder = tempfile.mkdtemp(prefix="graphkit-sandbox-")
        script = isolation.prepare_folder(self._folder, child_script())
        uid = isolation.new_uid()
        limits = self.limits
        self._group = cgroups.new_group(limits.sandbox_memory_bytes, limits.processes)
        processes = tree_processes(limits, self._group)
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        prefix = isolation.command_prefix(self._folder, uid, limits.folder_bytes, limits.folder_files, processes)
        command = prefix + [isolation.interpreter(), "-I", "-S", "-B", "-u", script, str(req_r), str(rep_w)]
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
            preexec_fn=_prepare_child(limits, self._group, processes, not isolation.limits_processes_inside(),
                                      writable=self._folder if isolation.write_barrier() else None),
        )
        os.close(req_r)
        os.close(rep_w)
        if self._group is not None and not self._group.holds(self._proc.pid):
            self._group.remove()  # the child could not join: it runs under its own limits and process group alone
            self._group = None
        self._channel = Channel(rep_r, req_w, limits.message_bytes)
        self._capture = Capture(self._proc.stdout, limits.output_bytes)
        self._capture.start()
        self._load_mark = None
        if mark_memory:
            ready = self._exchange({"ready": True}, limits.load_seconds, READY)
            if ready.get("status") != "ready":
                self.load_errors = [{"label": "submission", "type": "LoadFailed", "message": _explain(ready)}]
                return ready
            self._load_mark = self._memory_mark()
        reply = self._exchange({"chunks": self.chunks}, limits.load_seconds, {"loaded"}, bound=reply_bounds.of_load(self.chunks))
        if reply.get("status") != "loaded":
            self.load_errors = [{"label": "submission", "type": "LoadFailed", "message": _explain(reply)}]
            return reply
        self.load_errors = reply["errors"]
        return None

    def close(self):
        """Kill the child and everything it started, then remove its groups and folder; never raises."""
        proc, self._proc = self._proc, None
        _RUNNING.pop(id(self), None)
        if proc is None:
            return
        if self._load_mark is not None:
            self._memory_since(self._load_mark)  # a v2 mark holds a descriptor: read it, and so close it
            self._load_mark = None
        self._waited += patience.waited(tree_pids(proc.pid))  # read before the kill: the budget yields to it
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self._group is not None:
            self._group.kill()
        isolation.sweep(self._folder)
        proc.wait()
        for fd in (self._channel.read_fd, self._channel.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        self._capture.join(timeout=2)
        self.outputs.append(self._capture.text())
        if self._group is not None:
            self._group.remove()  # kills again until the groups are empty: nothing of the child runs after this
            self._group = None
        remove_tree(self._folder)

    def renew(self):
        """End the current child, if any: the next call starts a fresh one, which loads the code again.

        A measured call (memory or CPU time) starts from a fresh child, so that nothing an earlier
        call left (memory freed that the allocator kept, an answer remembered) changes its measure.
        A renewal is not a crash: it spends none of Limits.restarts.
        """
        if self._proc is not None:
            self.close()
            self.restarts -= 1

    # -- the time budget --------------------------------------------------
    def seconds_left(self):
        """Wall-clock seconds left in the submission's budget (all of it before the first call)."""
        if self._budget_end is None:
            return self.limits.submission_seconds
        return max(0.0, self._budget_end - time.monotonic())

    def _child_waited(self):
        """Seconds the current child's processes have waited for a CPU."""
        return patience.waited(tree_pids(self._proc.pid)) if self._proc is not None else 0.0

    def _yield_budget(self):
        """Move the budget's end on by the CPU waiting of its children and of this thread not yet added to it, up to
        patience.PATIENCE times the budget: a busy machine spends the budget no faster than a quiet one."""
        started, own = self._budget_start
        total = self._waited + self._child_waited() + patience.own_waited() - own
        gained = total - self._granted
        latest = started + patience.PATIENCE * self.limits.submission_seconds
        if gained >= patience.READING and self._budget_end < latest:  # not for a moment's worth: a child restarts
            self._budget_end = min(self._budget_end + gained, latest)
            self._granted = total

    def _out_of_time(self):
        return {"status": "out_of_time", "seconds": self.limits.submission_seconds}

    def _exchange(self, message, seconds, statuses, keys=None, bound=reply_bounds.FIXED):
        """Send one message tagged with a fresh nonce and return the child's clean reply to it.

        The exchange ends at `seconds` or when the submission's budget runs out, whichever is
        first: the reply is then a timeout, or out_of_time. A reply over `bound` is invalid.
        """
        nonce = secrets.token_bytes(HEADER.size - 8)
        started = time.monotonic()
        deadline = started + seconds
        by_budget = self._budget_end is not None and self._budget_end <= deadline
        if by_budget:
            deadline = self._budget_end
        try:
            self._channel.send(message, nonce, deadline)
            # The deadline yields to the time the child waited for a CPU (patience.py): load never ends a call.
            latest = started + patience.PATIENCE * seconds
            if by_budget:
                latest = min(latest, self._budget_start[0] + patience.PATIENCE * self.limits.submission_seconds)
            moved = patience.deadline_for(self._channel.read_fd, started, deadline, self._child_waited, latest)
            if by_budget and moved > self._budget_end:
                self._granted += moved - self._budget_end
                self._budget_end = moved
            reply = _clean(self._channel.receive(moved, nonce, bound), statuses, keys)
        except TimeoutError:
            self.close()
            return self._out_of_time() if by_budget else {"status": "timeout", "seconds": seconds}
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
    def call(self, fn, args, kwargs=None, seconds=None, measure_cpu=False, measure_memory=False, built=None, **flags):
        """Call `fn(*args, **kwargs)` in the child; return a reply dict of plain values.

        status is one of: ok (with value), raised (with error), missing (no such
        function), timeout, died, invalid, unsendable, unloadable, out_of_time (the
        submission's time budget is spent: this call and every later one fail at once).
        With `built`, a description for builders.build, the child builds `args` itself
        (which must be what builders.build gives for it) instead of receiving them. With
        measure_cpu, the reply also holds cpu_seconds, the CPU time of the child's process
        tree during the call. With measure_memory, the call runs in a fresh child (an earlier
        one is ended) and the reply holds memory_bytes: the most memory the child's cgroup held
        at once from before the learner's code loaded to the end of the call (loading it,
        building or decoding the arguments, the call itself), above what the bare child held.
        Where no memory cgroup holds the child there is no memory_bytes: a process's own peak
        resident size is no measure, since memory taken and freed before any mark can hold what
        the call keeps. Both are read by this process, never reported by the child.
        """
        if self._unloadable is not None:
            return dict(self._unloadable)
        if self._budget_end is None:
            self._budget_end = time.monotonic() + self.limits.submission_seconds
            self._budget_start = (time.monotonic(), patience.own_waited())
        if self.seconds_left() <= 0:
            self._yield_budget()
        if self.seconds_left() <= 0:
            self.close()
            return {**self._out_of_time(), "wall_seconds": 0.0}
        if measure_memory:
            self.renew()
        if self._proc is None:
            if self.restarts >= self.limits.restarts:
                return {"status": "died", "exit": "too many crashes or timeouts; grading of this submission stopped"}
            failed = self._start(mark_memory=measure_memory)
            if failed is not None and failed.get("status") == "out_of_time":
                return failed
            if failed is not None:
                self._unloadable = {"status": "unloadable", "errors": self.load_errors}
                self.close()
                return dict(self._unloadable)
        request = {"fn": fn, "kwargs": kwargs or {}, **flags}
        if built is None:
            request["args"] = args
        else:
            request["build"] = built
        keys = args[1] if len(args) > 1 and type(args[1]) is dict else None  # a reply may give just their values
        echoed = bool(flags.get("return_args") or flags.get("mutate_result"))
        bound = reply_bounds.of_call(args, kwargs, built, echoed, driven="driver" in flags)
        mark = self._load_mark if measure_memory else None
        self._load_mark = None  # read below, whatever happens to the child
        started, cpu_before = time.perf_counter(), (self._cpu_seconds() if measure_cpu else 0.0)
        seconds = min(seconds or self.limits.call_seconds, self.limits.longest_call_seconds)
        reply = self._exchange(request, seconds, STATUSES, keys, bound)
        reply["wall_seconds"] = time.perf_counter() - started
        if measure_cpu and self._proc is not None:  # read by the parent, never reported by the child
            reply["cpu_seconds"] = self._cpu_seconds() - cpu_before
        if mark is not None:
            used = self._memory_since(mark)  # read even when the child is gone: a v2 mark holds a descriptor
            if used is not None and self._proc is not None:
                reply["memory_bytes"] = used
        return reply

    def _cpu_seconds(self):
        """CPU time used so far by the child and everything it started: from its cgroup, or else from /proc."""
        if self._proc is None:
            return 0.0
        if self._group is not None:
            seconds = self._group.cpu_seconds()
            if seconds is not None:
                return seconds
        return tree_cpu_seconds(self._proc.pid)

    def _memory_mark(self):
        """Start measuring the child's peak memory through its cgroup (its whole tree); None where none holds it."""
        return self._group.memory_mark() if self._group is not None else None

    @staticmethod
    def _memory_since(mark):
        return cgroups.Group.memory_since(mark)

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


def _clean(message, statuses, keys=None):
    """Rebuild a child's message from the fields its status allows, each of the right plain type.

    An answer comes as "value", or, when it is a dict of numbers keyed by the names of the call's
    second argument (`keys`, the parent's own copy) in their order, as "values": just the numbers,
    one per name, each an exact int or float. With "last", a driver's list of answers is "value"
    followed by the dict that "values" gives.
    """
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
        last = message.get("last") is True  # a driver's list of answers, "value", then one more given as "values"
        if "value" in message and not last:
            reply["value"] = message["value"]
        elif "values" in message and keys is not None:
            values = message["values"]
            if type(values) is not list or len(values) != len(keys):
                return {"status": "invalid", "reason": "a list of values that does not match the call's names"}
            if not set(map(type, values)) <= NUMBERS:
                return {"status": "invalid", "reason": "a list of values that are not all numbers"}
            reply["value"] = dict(zip(keys, values))
            if last:
                if type(message.get("value")) is not list:
                    return {"status": "invalid", "reason": "a driver's answers that are not a list"}
                reply["value"] = [*message["value"], reply["value"]]
        else:
            return {"status": "invalid", "reason": "an answer without a value"}
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
    if status == "out_of_time":
        return f"the {reply['seconds']:.0f} s all of this submission's code may run for together ran out while loading it"
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
