"""The limits one sandbox's child runs under, and the step that sets them between fork and exec."""

import resource
from dataclasses import dataclass

from autograder.sandbox import landlock


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


def tree_processes(limits, group):
    """How many processes one child may have at once: Limits.processes where its cgroup caps their memory
    together; elsewhere only as many as Limits.sandbox_memory_bytes holds at Limits.memory_bytes each (two at least)."""
    if group is not None and group.memory_capped:
        return limits.processes
    return max(2, min(limits.processes, limits.sandbox_memory_bytes // limits.memory_bytes))


def resource_limits(limits, processes=None):
    """[(resource, its prlimit option, value)]: the child's resource limits, soft and hard alike; the process limit
    only when ``processes`` is given."""
    return [
        (kind, option, value)
        for kind, option, value in (
            (resource.RLIMIT_CPU, "--cpu", limits.cpu_seconds),
            (resource.RLIMIT_AS, "--as", limits.memory_bytes),
            (resource.RLIMIT_NPROC, "--nproc", processes),
            (resource.RLIMIT_NOFILE, "--nofile", limits.open_files),
            (resource.RLIMIT_FSIZE, "--fsize", limits.file_bytes),
            (resource.RLIMIT_CORE, "--core", 0),
        )
        if value is not None
    ]


def rlimit_options(limits, processes=None):
    """resource_limits as util-linux prlimit's options."""
    return [f"{option}={value}:{value}" for _kind, option, value in resource_limits(limits, processes)]


def prepare_child(limits, group, processes, process_limit=True, writable=None):
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
        for kind, _option, value in resource_limits(limits, processes if process_limit else None):
            resource.setrlimit(kind, (value, value))
        if writable is not None:
            landlock.restrict(writable)  # last: joining the cgroups above writes outside the folder

    return apply
