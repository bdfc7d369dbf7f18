"""Waiting for killed processes to end: a sandbox's close returns only once none of its child's processes runs."""

import os
import select
import time

GONE_SECONDS = 5.0  # how long close waits for the processes it killed to end


def gone(pids, seconds=GONE_SECONDS):
    """Wait until none of ``pids`` runs any more (ended, or a zombie). A PID namespace's processes all die with its
    first one, but the kernel kills them as that one exits, not before its parent has been told: without this wait,
    a process that left its session could still be running, for a moment, after close returned."""
    deadline = time.monotonic() + seconds
    for pid in pids:
        _ended(pid, deadline)


def _ended(pid, deadline):
    """Wait until process ``pid`` has ended or ``deadline`` (time.monotonic) passes: on a pidfd, which Linux makes
    readable the moment the process ends, or where there is none, by reading its state every few milliseconds."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # ended and reaped already
    except (OSError, AttributeError):  # no pidfds here (an older kernel, or not Linux)
        fd = None
    if fd is not None:
        try:
            select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        finally:
            os.close(fd)
        return
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    return
        except (OSError, IndexError):
            return
        time.sleep(0.005)
