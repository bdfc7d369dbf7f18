"""What the sandbox's isolation gives on this machine, in words: the lines of `python -m autograder doctor`
and the warning a grade's overview adds when learner code runs with resource limits only (isolation.py decides)."""

from autograder.sandbox import isolation, landlock
from autograder.sandbox.cgroups import cgroup_base, v1_bases, v2_caps


def warning():
    """The line a grade's overview adds when learner code runs with resource limits only, else None."""
    level, missing = isolation.probe()
    if level == "full":
        return None
    return "sandbox: resource limits only; missing protections: " + "; ".join(missing)


def report():
    """Lines for `python -m autograder doctor`."""
    level, missing = isolation.probe()
    if level == "full" or isolation.asked_for_limits():
        lines = [f"sandbox level: {level}"]
    else:
        lines = [
            f"sandbox level: none: grading refuses to start learner code here "
            f"({isolation.MODE_ENV}=limits accepts limits only)"
        ]
    if level == "full":
        user = (
            "a fresh unprivileged uid per child"
            if isolation.variant() == "root"
            else "the root of a user namespace of its own, mapped to the grader's user"
        )
        bound, hidden = ", ".join(isolation.system_folders()), ", ".join(isolation.hidden_folders())
        lines += [
            "network: new empty network namespace (no network)",
            "processes: new PID namespace; every process dies with the check",
            "shared memory: new IPC namespace; SysV segments, semaphores and queues die with the check",
            f"files: a private read-only root with only {bound} (read-only) and the child's own "
            f"folder, a tmpfs that dies with it; {hidden} hidden behind empty tmpfs mounts",
            f"user: {user}, no capabilities, no new privileges",
        ]
    else:
        if isolation.pid_namespace():
            lines.append("processes: a PID namespace per child; every process dies with the check (setsid included)")
        else:
            lines.append(
                "processes: no PID namespace can be made here; every process in the child's cgroup is killed after "
                "each check where one can be made; elsewhere its process group is, and escaped processes that still "
                "carry its folder (working folder or TMPDIR) are hunted down: one that drops both can outlive grading"
            )
        if landlock.abi():
            lines.append(
                f"files: Landlock (ABI {landlock.abi()}): learner code writes only in its own folder, so it "
                "cannot change the course's store, the kit or a results file; it can read what the grader's "
                "user can"
            )
        else:
            lines.append(
                "files: this kernel has no Landlock: learner code can read and write what the grader's user "
                "can, the course's store and the kit's files included"
            )
    lines += [f"missing: {m}" for m in missing]
    if cgroup_base() is not None:
        lines.append(f"CPU time (linear_time): a cgroup per child under {cgroup_base()}, exited processes included")
    else:
        lines.append(
            "CPU time (linear_time): read from /proc, with the children each process has waited for; "
            "no cgroup can be made here, so a child reaped unwaited (SIGCHLD ignored) is not counted"
        )
    if v2_caps() or "memory" in v1_bases():
        lines.append(
            "memory and processes of a child's whole tree: capped by its cgroup (Limits.sandbox_memory_bytes, "
            "Limits.processes)"
        )
    else:
        lines.append(
            "memory and processes of a child's whole tree: no memory cgroup can be made here, so the process "
            "count is lowered until the processes' limits together stay under Limits.sandbox_memory_bytes"
        )
    lines.append(
        "always: CPU, memory, process, open-file and file-size limits; wall-clock timeouts per call and "
        "per submission; clean environment"
    )
    return lines
