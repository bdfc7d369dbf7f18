"""How a sandbox child's process is started: without copying the grading process, where the system's tools allow.

A fork copies the grading process's page tables, and then every page either side writes while the copy lives: a
grader holding large built inputs paid tens of milliseconds of CPU for each child it started, more than the child's
own start. Python starts a program with vfork instead, which copies nothing, when nothing of its own has to run
between fork and exec. So the child's first program is a gate: `sh`, waiting for one line on its standard input.
Before sending it, the parent moves the gate into the child's cgroups; then the gate runs util-linux's `prlimit`,
which takes the child's resource limits and runs the rest of the command under them, with /dev/null as its input.
Nothing of the command runs before it is in its groups and under its limits, as when the grader's fork set them.

Where prlimit is missing, or Landlock must be set up in the child (limits only, autograder/sandbox/landlock.py), the
groups and limits are set between fork and exec (limits.prepare_child), as they always were.
"""

import os
import subprocess

from autograder.sandbox import isolation
from autograder.sandbox.limits import prepare_child, rlimit_options

GATE = 'read -r _ || exit 98; exec "$@" </dev/null'  # 98: the parent sent no line (it could not start the child)


def gated(barrier):
    """Whether start() takes the gate here (``barrier``: a write barrier is asked for): then nothing of Python's runs
    between fork and exec, and a child may be started from a second thread (a preexec_fn in a threaded process may
    deadlock)."""
    return not barrier and os.path.isabs(isolation.tool("prlimit"))


def start(command, limits, group, processes, process_limit, writable, **popen):
    """subprocess.Popen(command, **popen) under ``limits`` and in ``group`` (None: no cgroup), with at most
    ``processes`` processes when ``process_limit``, and written to beneath ``writable`` alone when it is not None."""
    if not gated(writable is not None):
        made = prepare_child(limits, group, processes, process_limit, writable)
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, preexec_fn=made, **popen)
    options = rlimit_options(limits, processes if process_limit else None)
    gated_command = [isolation.tool("sh"), "-c", GATE, "sh", isolation.tool("prlimit"), *options, "--", *command]
    proc = subprocess.Popen(gated_command, stdin=subprocess.PIPE, **popen)
    if group is not None:
        try:
            group.join(proc.pid)
        except OSError:
            pass  # the caller sees the child is not in the groups and does without them
    gate, proc.stdin = proc.stdin, None  # the gate's alone: the child reads /dev/null, as a forked one would
    try:
        os.write(gate.fileno(), b"\n")
    except OSError:
        pass  # the gate is gone: so is the child, which the first exchange with it finds
    gate.close()  # nothing buffered: closing cannot fail
    return proc
