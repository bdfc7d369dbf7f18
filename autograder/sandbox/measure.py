"""What the sandbox measures of a child, read by the parent and never reported by the child: CPU time and peak
memory."""

import os

from autograder.sandbox import cgroups


def cpu_seconds(proc, group):
    """CPU time used so far by the child ``proc`` and everything it started: from its cgroup, or else from /proc."""
    if proc is None:
        return 0.0
    if group is not None:
        seconds = group.cpu_seconds()
        if seconds is not None:
            return seconds
    return tree_cpu_seconds(proc.pid)


def memory_mark(group):
    """Start measuring a child's peak memory through its cgroup (its whole tree); None where none holds it."""
    return group.memory_mark() if group is not None else None


def memory_since(mark):
    """The most memory the child's cgroup held at once since ``mark``, above what it held then; None where unknown."""
    return cgroups.Group.memory_since(mark)


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
