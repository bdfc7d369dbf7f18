"""A group of cgroups per sandbox child: the CPU time, memory and processes of everything it starts.

A child is in its groups before it starts anything, so all it starts stays in them (it cannot see
/sys and runs unprivileged): the parent moves it there (autograder/sandbox/launch.py). The cgroup
v2 group counts the CPU time of every process that has been in it, exited ones included
(cpu.stat), and kills them all at once (cgroup.kill). The memory and process caps of the whole
tree (memory.max, pids.max) come from v2 where the grader's own group hands those controllers
down to its children, and otherwise from the v1 memory and pids hierarchies where they are
mounted (memory.limit_in_bytes, pids.max). Where neither can be made, `Group.memory_capped` is
False and the sandbox caps the tree itself.
"""

import functools
import os
import secrets
import signal
import subprocess
import threading
import time

PREFIX = "graphkit-"  # the groups the sandbox makes, one per child (and one per hierarchy)
V1_CONTROLLERS = ("memory", "pids")


def _own_paths():
    """{hierarchy: this process's path in it}: "" for the v2 hierarchy, else the v1 controller list."""
    paths = {}
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            number, controllers, path = line.rstrip("\n").split(":", 2)
            paths["" if number == "0" else controllers] = path
    return paths


def _mounts():
    with open("/proc/self/mounts", encoding="utf-8") as handle:
        return [line.split() for line in handle]


def _in_mount(mountpoint, path):
    return os.path.normpath(os.path.join(mountpoint, path.lstrip("/")))


def _v2_folders():
    """The cgroup v2 folders this process sits in, one per mount of the v2 hierarchy."""
    own = _own_paths().get("")
    if own is None:
        return []
    return [_in_mount(m[1], own) for m in _mounts() if len(m) > 2 and m[2] == "cgroup2"]


def _write(folder, name, value):
    with open(os.path.join(folder, name), "w", encoding="ascii") as handle:
        handle.write(str(value))


def _read(folder, name):
    with open(os.path.join(folder, name), encoding="ascii") as handle:
        return handle.read()


# The probe's process: a gate, then a moment of CPU time for its group to count.
PROBE = 'read -r _ || exit 1; i=0; while [ "$i" -lt 2000 ]; do i=$((i + 1)); done'
_PROBING = threading.Lock()


def cgroup_base():
    """A cgroup v2 folder in which the grader may make a group per child, or None.

    Probed once: make a group, run a process in it, and see its time counted. The process is a gate (`sh`, waiting
    for a line) that the parent moves into the group: no fork of this process runs Python, so the probe may run in a
    thread of its own (spare.probe_early) while this one goes on.
    """
    with _PROBING:
        return _probed_base()


@functools.lru_cache(maxsize=1)
def _probed_base():
    try:
        folders = _v2_folders()
    except (OSError, ValueError):
        return None
    for folder in folders:
        probe = os.path.join(folder, PREFIX + "probe-" + secrets.token_hex(4))
        try:
            os.mkdir(probe)
        except OSError:
            continue
        try:
            gate = subprocess.Popen(
                ["/bin/sh", "-c", PROBE], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            try:
                _write(probe, "cgroup.procs", gate.pid)
            finally:
                try:
                    gate.communicate(b"\n", timeout=20)  # the loop runs in the group, or (refused) outside it
                except subprocess.TimeoutExpired:
                    gate.kill()
                    gate.wait()
                    raise
            counted = Group(probe).cpu_seconds()
        except (OSError, subprocess.SubprocessError):
            counted = None
        finally:
            _remove_folder(probe, 2.0)
        if counted:
            _remove_stale(folder)
            return folder
    return None


@functools.lru_cache(maxsize=1)
def v2_caps():
    """Whether groups made under cgroup_base() get the memory and pids controllers (turned on here if they can be)."""
    base = cgroup_base()
    if base is None:
        return False
    try:
        if {"memory", "pids"} <= set(_read(base, "cgroup.subtree_control").split()):
            return True
        if not {"memory", "pids"} <= set(_read(base, "cgroup.controllers").split()):
            return False
        _write(
            base, "cgroup.subtree_control", "+memory +pids"
        )  # refused where the group holds processes (not the root)
        return True
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def v1_bases():
    """{controller: folder} of the v1 memory and pids hierarchies where the grader may make a group per child."""
    try:
        own, mounts = _own_paths(), _mounts()
    except (OSError, ValueError):
        return {}
    bases = {}
    for controller in V1_CONTROLLERS:
        path = next((p for names, p in own.items() if controller in names.split(",")), None)
        mount = next((m[1] for m in mounts if len(m) > 3 and m[2] == "cgroup" and controller in m[3].split(",")), None)
        if path is None or mount is None:
            continue
        folder = _in_mount(mount, path)
        probe = os.path.join(folder, PREFIX + "probe-" + secrets.token_hex(4))
        try:
            os.mkdir(probe)
        except OSError:
            continue
        _remove_folder(probe, 2.0)
        _remove_stale(folder)
        bases[controller] = folder
    return bases


def _remove_stale(folder, age=600):
    """Remove the empty groups a grader killed before it could clean up left behind (older than `age` seconds).

    A group in use is never removed: one with a process in it cannot be, and a fresh one is too young.
    """
    try:
        names = [n for n in os.listdir(folder) if n.startswith(PREFIX)]
    except OSError:
        return
    for name in names:
        try:
            if time.time() - os.stat(os.path.join(folder, name)).st_mtime > age:
                os.rmdir(os.path.join(folder, name))
        except OSError:
            continue


def _remove_folder(folder, seconds):
    """Remove an emptied group, waiting up to `seconds` for its dying processes to go; whether it is gone."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.rmdir(folder)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False  # left for the machine's own cleanup (and _remove_stale): an empty group costs nothing
            time.sleep(0.005)


class Group:
    """One child's groups: `v2` (CPU time, kill; memory and pids too where v2_caps()) and `v1` {controller: folder}."""

    def __init__(self, v2=None, v1=None, memory_capped=False, processes_capped=False):
        self.v2, self.v1 = v2, dict(v1 or {})
        self.memory_capped, self.processes_capped = memory_capped, processes_capped

    @property
    def folders(self):
        return ([self.v2] if self.v2 else []) + list(self.v1.values())

    def join(self, pid=None):
        """Move process ``pid`` (the calling one by default) into every group: before it starts anything, so that all
        it starts follows."""
        pid = os.getpid() if pid is None else pid
        for folder in self.folders:
            _write(folder, "cgroup.procs", pid)

    def holds(self, pid):
        """Whether process `pid` is in every one of the groups."""
        try:
            return all(str(pid) in _read(folder, "cgroup.procs").split() for folder in self.folders)
        except OSError:
            return False

    def cpu_seconds(self):
        """CPU time (user + system) used by every process that has been in the v2 group, or None if unreadable."""
        if self.v2 is None:
            return None
        try:
            for line in _read(self.v2, "cpu.stat").splitlines():
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) / 1e6
        except (OSError, ValueError):
            pass
        return None

    def memory_mark(self):
        """Start measuring the group's peak memory: a mark for memory_since(), or None where it cannot be measured.

        v1 resets memory.max_usage_in_bytes to the current usage; v2 (Linux 6.12 and later) resets
        memory.peak for one open descriptor, which the mark keeps. Either way the mark holds the usage now.
        """
        if self.v2 is not None and self.memory_capped and "memory" not in self.v1:
            try:
                fd = os.open(os.path.join(self.v2, "memory.peak"), os.O_RDWR)
            except OSError:
                return None
            try:
                os.write(fd, b"reset\n")
                return ("v2", fd, int(_read(self.v2, "memory.current")))
            except (OSError, ValueError):
                os.close(fd)
                return None
        folder = self.v1.get("memory")
        if folder is None:
            return None
        try:
            _write(folder, "memory.max_usage_in_bytes", 0)
            return ("v1", folder, int(_read(folder, "memory.usage_in_bytes")))
        except (OSError, ValueError):
            return None

    @staticmethod
    def memory_since(mark):
        """The most memory the group's processes held at once since `mark`, above what they held then (bytes)."""
        kind, where, before = mark
        try:
            if kind == "v2":
                os.lseek(where, 0, os.SEEK_SET)
                peak = int(os.read(where, 64))
            else:
                peak = int(_read(where, "memory.max_usage_in_bytes"))
        except (OSError, ValueError):
            return None
        finally:
            if kind == "v2":
                os.close(where)
        return max(0, peak - before)

    def _pids(self):
        pids = set()
        for folder in self.folders:
            try:
                pids.update(int(pid) for pid in _read(folder, "cgroup.procs").split())
            except (OSError, ValueError):
                continue
        return pids

    def kill(self):
        """SIGKILL every process in the groups, those that left the child's process group included."""
        if self.v2 is not None:
            try:
                _write(self.v2, "cgroup.kill", 1)
            except OSError:
                pass  # older kernels have no cgroup.kill: the processes are killed one by one below
        for pid in self._pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def remove(self, seconds=2.0):
        """Kill everything in the groups until they are empty, then remove them; whether every process is gone.

        Killing one by one may miss a process forked meanwhile, so it is done again while any is left.
        """
        deadline = time.monotonic() + seconds
        while True:
            self.kill()
            if not self._pids() or time.monotonic() > deadline:
                break
            time.sleep(0.005)
        gone = True
        for folder in self.folders:
            gone = _remove_folder(folder, max(0.0, deadline - time.monotonic())) and gone
        return gone


def _made(base):
    folder = os.path.join(base, PREFIX + secrets.token_hex(8))
    os.mkdir(folder)
    return folder


def new_group(memory_bytes, processes):
    """Fresh, empty groups for one child, capped at `memory_bytes` and `processes` where they can be; or None."""
    v2, v1, memory_capped, processes_capped = None, {}, False, False
    base = cgroup_base()
    if base is not None:
        try:
            v2 = _made(base)
        except OSError:
            v2 = None
    if v2 is not None and v2_caps():
        try:
            _write(v2, "memory.max", memory_bytes)
            _write(v2, "pids.max", processes)
            memory_capped = processes_capped = True
            for name, value in (("memory.swap.max", 0), ("memory.oom.group", 1)):
                try:
                    _write(v2, name, value)  # no swap to hide in; one process out of memory ends them all
                except OSError:
                    pass
        except OSError:
            pass
    for controller, base_folder in v1_bases().items():
        if controller == "memory" and memory_capped or controller == "pids" and processes_capped:
            continue
        try:
            folder = _made(base_folder)
        except OSError:
            continue
        try:
            if controller == "memory":
                _write(folder, "memory.limit_in_bytes", memory_bytes)
                if os.path.exists(os.path.join(folder, "memory.memsw.limit_in_bytes")):
                    _write(folder, "memory.memsw.limit_in_bytes", memory_bytes)  # swap counted too
                memory_capped = True
            else:
                _write(folder, "pids.max", processes)
                processes_capped = True
            v1[controller] = folder
        except OSError:
            _remove_folder(folder, 0.0)
    if v2 is None and not v1:
        return None
    return Group(v2, v1, memory_capped, processes_capped)
