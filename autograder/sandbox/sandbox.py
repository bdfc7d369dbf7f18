"""The trusted side of the sandbox: start the child under limits, send calls, read plain replies.

One child serves every call for one submission. A call that times out, crashes the child
or sends a malformed reply fails on its own: the child is killed and a fresh one, with the
learner's code loaded again, answers the next call. All the calls of one submission share a
wall-clock budget (Limits.submission_seconds): once it is spent, every call left fails at once.

Calls and replies go through autograder/sandbox/channel.py, under autograder/sandbox/limits.py's
limits; replies are rebuilt from plain values (autograder/sandbox/replies.py), and CPU time and
memory are measured by this process (autograder/sandbox/measure.py).

Closing a sandbox kills every process of the child before it returns: the PID namespace in
full isolation, and the child's cgroup (or, where none can be made, its process group and a
sweep) with limits only. The child's folder is removed by remove_tree, which never raises.
"""

import functools
import os
import secrets
import signal
import subprocess
import tempfile
import time

from autograder.sandbox import cgroups, isolation, launch, measure, patience, reply_bounds, spare
from autograder.sandbox.ahead import Ahead
from autograder.sandbox.channel import HEADER, Capture, Channel
from autograder.sandbox.ending import gone
from autograder.sandbox.limits import Limits, tree_processes
from autograder.sandbox.measure import tree_pids
from autograder.sandbox.program import child_program
from autograder.sandbox.removal import remove_tree
from autograder.sandbox.replies import READY, STATUSES, clean, explain

_LEARNER_CODE_RAN = []  # set once a sandbox of this process has loaded code other than the course's references


def learner_code_ran():
    """Whether this process has started a child that ran a learner's code (files it writes are then suspect)."""
    return bool(_LEARNER_CODE_RAN)


_RUNNING = {}  # id(sandbox) -> sandbox, for every sandbox of this process whose child runs


def close_all():
    """Close every sandbox of this process whose child still runs (killing all it started); how many there were.

    A grader calls it before it writes results, so that no learner process exists when the file is made.
    """
    spare.settle()  # a spare child being started is started, and closed here
    running = list(_RUNNING.values())
    for sandbox in running:
        sandbox.close()
    return len(running)


def start_spare(limits=Limits()):
    """Start a child now, for the next learner's sandbox with ``limits`` to take (spare.py)."""
    spare.start(Sandbox, limits)


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
        self._mode = None  # the isolation its child started in (isolation.mode())
        self._group = None  # the child's own cgroups (cgroups.Group: CPU time, kill, memory and processes), or None
        self._unloadable = None  # the reply to give every call once loading has failed
        self._load_mark = None  # a memory mark taken before the learner's code loaded (see call's measure_memory)
        self._budget_end = None  # when the submission's time budget runs out (time.monotonic), from its first call
        self._budget_start = None  # and when it started, with this thread's CPU waiting then (patience.own_waited)
        self._waited = 0.0  # seconds the children closed so far waited for a CPU (patience.waited)
        self._granted = 0.0  # seconds of such waiting already added to the budget
        self._ahead_wanted = None  # start_ahead's mark_memory, until a child has loaded and one is started ahead
        self._ahead = None  # the child started ahead (ahead.Ahead), until a start takes it
        self._while_loading = None  # while_loading's work, until a child loads the code

    # -- life cycle -------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        if self._ahead is not None:
            self._ahead.drop()

    def _start(self, mark_memory=False):
        """Start a child and load the learner's code; None when loaded, else the failed load's reply.

        With `mark_memory`, the child's memory is marked once it is up and before it runs anything of the
        learner's (self._load_mark; None where no memory cgroup holds it), so that what the learner's code
        does to the allocator while it loads is counted, not hidden. Raises isolation.IsolationError when
        full isolation is not available and weaker was not asked for.
        """
        spare.settle()
        mode = isolation.mode()
        if not self.reference:
            _LEARNER_CODE_RAN[:] = [True]
        self.restarts += 1
        holder = spare.take(self, mode)
        if holder is None:
            self._spawn(mode)
        else:
            self._adopt(holder)
        limits = self.limits
        self._load_mark = None
        if mark_memory:
            ready = self._exchange({"ready": True}, limits.load_seconds, READY)
            if ready.get("status") != "ready":
                self.load_errors = [{"label": "submission", "type": "LoadFailed", "message": explain(ready)}]
                return ready
            self._load_mark = measure.memory_mark(self._group)
        bound, work, self._while_loading = reply_bounds.of_load(self.chunks), self._while_loading, None
        reply = self._exchange({"chunks": self.chunks}, limits.load_seconds, {"loaded"}, bound=bound, meanwhile=work)
        if reply.get("status") != "loaded":
            self.load_errors = [{"label": "submission", "type": "LoadFailed", "message": explain(reply)}]
            return reply
        self.load_errors = reply["errors"]
        return None

    def _spawn(self, mode):
        """Start this sandbox's child process in isolation ``mode``: it waits for its first message."""
        self._mode, limits = mode, self.limits
        _RUNNING[id(self)] = self
        self._folder = tempfile.mkdtemp(prefix="graphkit-sandbox-")
        script = isolation.prepare_folder(self._folder, child_program())
        uid = isolation.new_uid()
        self._group = cgroups.new_group(limits.sandbox_memory_bytes, limits.processes)
        processes = tree_processes(limits, self._group)
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        prefix = isolation.command_prefix(self._folder, uid, limits.folder_bytes, limits.folder_files, processes)
        command = prefix + [isolation.interpreter(), "-I", "-S", "-B", "-u", script, str(req_r), str(rep_w)]
        env = {"PATH": "/usr/bin:/bin", "HOME": self._folder, "TMPDIR": self._folder, "LANG": "C.UTF-8"}
        self._proc = launch.start(
            command,
            limits,
            self._group,
            processes,
            not isolation.limits_processes_inside(),
            self._folder if isolation.write_barrier() else None,
            cwd=self._folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(req_r, rep_w),
            start_new_session=True,
        )
        os.close(req_r)
        os.close(rep_w)
        if self._group is not None and not self._group.holds(self._proc.pid):
            self._group.remove()  # the child could not join: it runs under its own limits and process group alone
            self._group = None
        self._channel = Channel(rep_r, req_w, limits.message_bytes)
        self._capture = Capture(self._proc.stdout, limits.output_bytes)
        self._capture.start()

    def _adopt(self, holder, *more):
        """Make ``holder``'s child this sandbox's own: its process, folder, groups, pipes and attributes ``more``."""
        for name in ("_proc", "_folder", "_group", "_channel", "_capture", "_mode", *more):
            setattr(self, name, getattr(holder, name))
        holder._proc = holder._load_mark = None  # closing the child is this sandbox's to do now
        _RUNNING.pop(id(holder), None)
        _RUNNING[id(self)] = self

    def close(self):
        """Kill the child and everything it started, then remove its groups and folder; never raises."""
        proc, self._proc = self._proc, None
        _RUNNING.pop(id(self), None)
        if proc is None:
            return
        if self._load_mark is not None:
            measure.memory_since(self._load_mark)  # a v2 mark holds a descriptor: read it, and so close it
            self._load_mark = None
        tree = tree_pids(proc.pid)
        self._waited += patience.waited(tree)  # read before the kill: the budget yields to it
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self._group is not None:
            self._group.kill()
        isolation.sweep(self._folder)
        proc.wait()
        gone(tree)
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

        A measured call (memory or CPU time) starts from a fresh child, so that nothing an earlier call left (memory
        freed that the allocator kept, an answer remembered) changes its measure. It spends none of Limits.restarts.
        """
        if self._proc is not None:
            self.close()
            self.restarts -= 1

    def while_loading(self, work):
        """Run ``work()``, which must not raise, once, in this thread, while the next child started loads the code."""
        self._while_loading = work

    def start_ahead(self, mark_memory=False):
        """Once a child has loaded, start the next in the background (ahead.py), marking memory if ``mark_memory``."""
        if launch.gated(isolation.write_barrier()):
            self._ahead_wanted = mark_memory

    def _take_ahead(self, mark_memory):
        """Make the child started ahead this sandbox's own; whether it had loaded and was taken."""
        ahead, self._ahead = self._ahead, None
        holder = ahead.take(mark_memory) if ahead is not None else None
        if holder is None:
            return False
        self._adopt(holder, "_load_mark", "load_errors")
        self.restarts += 1
        return True

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

    def _exchange(self, message, seconds, statuses, keys=None, bound=reply_bounds.FIXED, spent=None, meanwhile=None):
        """Send one message tagged with a fresh nonce and return the child's clean reply to it; `meanwhile()` runs
        once it is sent, while the child works. The exchange ends at `seconds`, when the submission's budget runs out,
        or when `spent()` says the call has used all it may, whichever is first: the reply is then a timeout, or
        out_of_time. A reply over `bound` (or what it gives when called, once the message is sent) is invalid."""
        nonce = secrets.token_bytes(HEADER.size - 8)
        started = time.monotonic()
        deadline = started + seconds
        by_budget = self._budget_end is not None and self._budget_end <= deadline
        if by_budget:
            deadline = self._budget_end
        try:
            self._channel.send(message, nonce, deadline)
            bound = bound() if callable(bound) else bound
            if meanwhile is not None:
                meanwhile()
            # The deadline yields to the time the child waited for a CPU (patience.py): load never ends a call.
            latest = started + patience.PATIENCE * seconds
            if by_budget:
                latest = min(latest, self._budget_start[0] + patience.PATIENCE * self.limits.submission_seconds)
            moved = patience.deadline_for(self._channel.read_fd, started, deadline, self._child_waited, latest, spent)
            if by_budget and moved > self._budget_end:
                self._granted += moved - self._budget_end
                self._budget_end = moved
            reply = clean(self._channel.receive(moved, nonce, bound), statuses, keys)
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
    def call(
        self,
        fn,
        args,
        kwargs=None,
        seconds=None,
        measure_cpu=False,
        measure_memory=False,
        built=None,
        cpu=None,
        meanwhile=None,
        **flags,
    ):
        """Call `fn(*args, **kwargs)` in the child; return a reply dict of plain values.

        status is one of: ok (with value), raised (with error), missing (no such function), timeout, died, invalid,
        unsendable, unloadable, out_of_time (the submission's time budget is spent: this call and every later one fail
        at once). With `built`, a description for builders.build, the child builds `args` itself (which must be what
        builders.build gives for it) instead of receiving them. With measure_cpu, the reply also holds cpu_seconds, the
        CPU time of the child's process tree during the call; with `cpu` too, the call is stopped as a timeout once that
        passes `cpu` seconds (its cpu_seconds say how far). With measure_memory, the call runs in a fresh child (an
        earlier one is ended) and the reply holds memory_bytes: the most memory the child's cgroup held at once from
        before the learner's code loaded to the end of the call (loading it, building or decoding the arguments, the
        call itself), above what the bare child held. Where no memory cgroup holds the child there is no memory_bytes: a
        process's own peak resident size is no measure, since memory taken and freed before any mark can hold what the
        call keeps. Both are read by this process, never reported by the child. `meanwhile()`, which must not raise,
        runs once the request is sent, while the child works.
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
            failed = None if self._take_ahead(measure_memory) else self._start(mark_memory=measure_memory)
            if failed is not None and failed.get("status") == "out_of_time":
                return failed
            if failed is not None:
                self._unloadable = {"status": "unloadable", "errors": self.load_errors}
                self.close()
                return dict(self._unloadable)
            if self._ahead_wanted is not None:
                self._ahead, self._ahead_wanted = Ahead.of(self, self._ahead_wanted), None
        request = {"fn": fn, "kwargs": kwargs or {}, **flags}
        if built is None:
            request["args"] = args
        else:
            request["build"] = built
        keys = args[1] if len(args) > 1 and type(args[1]) is dict else None  # a reply may give just their values
        echoed = bool(flags.get("return_args") or flags.get("mutate_result"))
        bound = functools.partial(reply_bounds.of_call, args, kwargs, built, echoed, driven="driver" in flags)
        mark = self._load_mark if measure_memory else None
        self._load_mark = None  # read below, whatever happens to the child
        started = time.perf_counter()
        cpu_before = measure.cpu_seconds(self._proc, self._group) if measure_cpu else 0.0
        seconds = min(seconds or self.limits.call_seconds, self.limits.longest_call_seconds)
        read = []  # the CPU time the call had used when last read while it ran

        def spent(proc=self._proc, group=self._group):
            read[:] = [measure.cpu_seconds(proc, group) - cpu_before]
            return read[0] > cpu

        reply = self._exchange(
            request, seconds, STATUSES, keys, bound, spent if measure_cpu and cpu else None, meanwhile
        )
        reply["wall_seconds"] = time.perf_counter() - started
        if measure_cpu and self._proc is not None:  # read by the parent, never reported by the child
            reply["cpu_seconds"] = measure.cpu_seconds(self._proc, self._group) - cpu_before
        elif reply["status"] == "timeout" and read and read[0] > cpu:  # stopped for its CPU time
            reply["cpu_seconds"] = read[0]
        if mark is not None:
            used = measure.memory_since(mark)  # read even when the child is gone: a v2 mark holds a descriptor
            if used is not None and self._proc is not None:
                reply["memory_bytes"] = used
        return reply

    def variable(self, name, seconds=None):
        """The plain value of a global the learner's code defines (an answer cell's variable)."""
        return self.call(name, [], seconds=seconds, var=name)

    def output(self):
        """Everything the child printed (capped), over every child this sandbox started."""
        if self._proc is not None:
            return "".join(self.outputs) + self._capture.text()
        return "".join(self.outputs)
