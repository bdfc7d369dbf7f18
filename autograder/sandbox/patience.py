"""Wall-clock deadlines that yield to load: time spent waiting for a CPU is not the learner's.

A call's deadline and a submission's budget are wall-clock times, and on a machine busy with
other work a correct answer can take many times its own running time to arrive. Linux keeps,
for every thread, how long it has been ready to run but waiting for a CPU: the second field of
/proc/<pid>/task/<tid>/schedstat. A deadline that passes is moved on by the time the child's
processes spent waiting so, again and again while they keep waiting, so that what ends a call is
the time it ran (or slept, or blocked: a hang still ends at the deadline), never the machine's
load. A deadline moves at most to PATIENCE times its own length from its start. Where Linux
does not keep the figure, nothing moves and the deadlines are as they were.
"""

import os
import select
import time

FIRST_LOOK = 0.05  # seconds into a call before its child's waiting is first read: a call answered sooner reads nothing
LEAST = 0.01  # seconds of waiting worth moving a deadline for
PATIENCE = 10.0  # a deadline moves to at most this many times its own length after its start
READING = 0.5  # seconds left, at least, to read a reply that has begun to arrive
POLL = 0.05  # seconds between two readings of what a call has spent, when it may spend no more than a limit


def waited(pids):
    """Seconds the threads of ``pids`` have spent ready to run but waiting for a CPU, over their lives."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as stat:
                    total += int(stat.read().split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return total / 1e9


def own_waited():
    """Seconds the calling thread has waited for a CPU (the grading process's own share of the load)."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def readable(fd, deadline):
    """Wait until ``fd`` has something to read or ``deadline`` (time.monotonic) passes; whether it has."""
    left = max(0.0, deadline - time.monotonic())
    return bool(select.select([fd], [], [], left)[0])


def deadline_for(fd, started, deadline, tree_waited, latest, spent=None):
    """Wait for a reply on ``fd`` until ``deadline``, moved on by the CPU waiting ``tree_waited()`` reports since
    FIRST_LOOK after ``started``, never past ``latest``. Return the deadline to read the reply by: once it can be
    read, at least READING seconds from now; when none came, the deadline that passed with no waiting to move it.
    With ``spent``, which says whether the call has used all it may (its CPU time, say), the wait also ends as soon
    as it does, read every POLL seconds: the present is then returned, and no reply is waited for."""
    if readable(fd, min(deadline, started + FIRST_LOOK)):
        return max(deadline, time.monotonic() + READING)
    before = tree_waited()
    while not readable(fd, deadline if spent is None else min(deadline, time.monotonic() + POLL)):
        if spent is not None and spent():
            return time.monotonic()
        if time.monotonic() < deadline:
            continue
        now = tree_waited()
        gained, before = now - before, now
        if gained < LEAST or deadline >= latest:
            return deadline
        deadline = min(deadline + gained, latest)
    return max(deadline, time.monotonic() + READING)
