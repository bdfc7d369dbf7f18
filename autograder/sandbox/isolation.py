"""What this machine lets the sandbox do beyond resource limits, and the command prefix that does it.

As root with util-linux's `unshare` and `setpriv` (and coreutils' `chroot`), each child gets a
new network namespace (no network), a new PID namespace (no process outlives it, `setsid`
included), and a mount namespace in which it is chrooted into a root of its own: a root-owned
skeleton holding only read-only binds of the system folders and the interpreter's installation,
its own folder, a fresh /proc and three devices. The rest of the disk (other copies of the kit,
course folders, gradebooks, /tmp, /dev/shm) is not there at all; the kit's folder and every
folder named in HIDDEN_ENV is also covered by an empty tmpfs should it sit inside one of the
binds. The child runs under an unprivileged uid of its own, fresh for every start, so the
process limit of one child never counts another's, with no capabilities and no new privileges.
Elsewhere the child runs with resource limits in a clean temporary folder, `sweep()` hunts
processes that left its process group, and `warning()` says which protections are missing.
"""

import functools
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

UID_BASE, UID_SPAN = 1_500_000_000, 100_000_000  # a fresh uid per child, far from real accounts
KIT_ROOT = Path(__file__).resolve().parents[2]
# Extra folders to hide from learner code (course folder, outputs), os.pathsep-separated.
HIDDEN_ENV = "GRAPHKIT_HIDE"
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
ROOT_NAME = ".root"  # inside the child's folder: the skeleton of its new root
DEVICES = ("null", "zero", "urandom")

# Runs as root inside the new namespaces, on the skeleton root that prepare_folder() built on disk.
# Arguments: the new root, the child's folder, the chroot tool; system folders to bind up to
# --hide; folders to hide up to --; then the command to run in the new root. It runs as few
# commands as it can: each one costs a fork and an exec.
_INNER = r"""
root=$1 folder=$2 CHROOT=$3; shift 3
while [ "$1" != --hide ]; do mount --rbind -o ro "$1" "$root$1" || exit 97; shift; done
shift
while [ "$1" != -- ]; do
    if [ -d "$root$1" ]; then mount -t tmpfs -o size=64k,mode=000 graphkit-hidden "$root$1" || exit 97; fi
    shift
done
shift
for device in null zero urandom; do mount --bind "/dev/$device" "$root/dev/$device" || exit 97; done
mount -t proc proc "$root/proc" && mount --bind "$folder" "$root$folder" || exit 97
exec "$CHROOT" "$root" /bin/sh -c 'cd "$0" && exec "$@"' "$folder" "$@"
"""


def hidden_folders():
    folders = [KIT_ROOT] + [Path(p) for p in os.environ.get(HIDDEN_ENV, "").split(os.pathsep) if p]
    return [str(f.resolve()) for f in folders if f.is_dir()]


def interpreter():
    """The base interpreter: a venv's python may live inside a folder the child cannot see."""
    return os.path.realpath(sys.executable)


def system_folders():
    """Folders the child needs read-only: the system's, and the interpreter's own installation."""
    prefix = os.path.realpath(sys.base_prefix)
    folders = [f for f in SYSTEM_FOLDERS if os.path.lexists(f)]
    if not any(prefix == f or prefix.startswith(f + "/") for f in folders):
        folders.append(prefix)
    return folders


def _binds():
    """The system folders to bind; a top-level symlink such as /bin -> usr/bin is copied as a link instead."""
    return [f for f in system_folders() if not os.path.islink(f)]


def new_uid():
    """An unprivileged uid for one child: no account has it, and no other child shares it."""
    return UID_BASE + secrets.randbelow(UID_SPAN)


def _tool(name):
    """A tool's absolute path: the child's PATH is short, and chroot lives in /usr/sbin."""
    return shutil.which(name, path=os.pathsep.join(("/usr/sbin", "/usr/bin", "/sbin", "/bin", os.environ.get("PATH", "")))) or name


def _full_prefix(folder, uid):
    return [
        _tool("unshare"), "--net", "--pid", "--fork", "--kill-child", "--mount", "--propagation", "private",
        "--mount-proc", "--", _tool("sh"), "-c", _INNER, "sh", os.path.join(folder, ROOT_NAME), folder, _tool("chroot"),
        *_binds(), "--hide", *hidden_folders(), "--",
        _tool("setpriv"), f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
        "--bounding-set=-all", "--no-new-privs", "--",
    ]  # fmt: skip


@functools.lru_cache(maxsize=1)
def probe():
    """Return (level, missing): 'full' isolation or 'limits' only, and what is missing."""
    if os.environ.get("GRAPHKIT_SANDBOX") == "limits":
        return "limits", ["namespaces, private root and uid switch turned off by GRAPHKIT_SANDBOX=limits"]
    if os.geteuid() != 0:
        return "limits", ["not root: no network, PID or mount namespace, no private root and no uid switch"]
    missing = [tool for tool in ("unshare", "setpriv", "chroot", "sh") if not os.path.isabs(_tool(tool))]
    if missing:
        return "limits", [f"{', '.join(missing)} not found (install util-linux and coreutils)"]
    folder = tempfile.mkdtemp(prefix="graphkit-probe-")
    try:
        uid = new_uid()
        prepare_folder(folder, uid, full=True)
        check = "import json, os; print(os.getuid(), os.access(%r, os.R_OK))" % str(KIT_ROOT)
        test = _full_prefix(folder, uid) + [interpreter(), "-I", "-S", "-c", check]
        try:
            env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}  # as the child has it
            done = subprocess.run(test, capture_output=True, text=True, timeout=20, cwd=folder, env=env)
        except (OSError, subprocess.TimeoutExpired) as err:
            return "limits", [f"namespaces unavailable ({err})"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if done.returncode != 0 or done.stdout.split() != [str(uid), "False"]:
        reason = (done.stderr.strip().splitlines() or [f"unexpected output {done.stdout.strip()!r}"])[-1]
        return "limits", [f"namespaces unavailable: {reason}"]
    return "full", []


def command_prefix(folder, uid):
    """The command that runs the rest of the command line isolated, in `folder`, as `uid`."""
    return _full_prefix(folder, uid) if probe()[0] == "full" else []


def prepare_folder(folder, uid, full=None):
    """Give the child's private folder to the uid it will run as, and build the skeleton of its new root
    (root-owned folders to mount on, links, empty device files) there, so the setup script only mounts."""
    if full is None:
        full = probe()[0] == "full"
    if not full:
        return
    for entry in Path(folder).iterdir():
        os.chown(entry, uid, uid)
    os.chown(folder, uid, uid)
    root = os.path.join(folder, ROOT_NAME)
    for place in ["/dev", "/proc", folder, *_binds()]:
        os.makedirs(root + place, mode=0o755, exist_ok=True)
    for link in system_folders():
        if os.path.islink(link):
            os.symlink(os.readlink(link), root + link)
    for device in DEVICES:
        open(os.path.join(root, "dev", device), "x").close()
    os.symlink("/proc/self/fd", os.path.join(root, "dev", "fd"))


def sweep(folder):
    """Limits mode: kill processes that left the child's process group (os.setsid) yet still carry its
    folder as their working folder or TMPDIR. Full mode needs none of this: the PID namespace ends them all."""
    if probe()[0] == "full":
        return
    needle = f"TMPDIR={folder}".encode()
    for _round in range(10):  # a process may fork while the sweep runs: sweep until nothing is left
        killed = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                cwd = os.readlink(f"/proc/{entry}/cwd")
                with open(f"/proc/{entry}/environ", "rb") as handle:
                    environ = handle.read().split(b"\0")
            except OSError:
                continue
            if cwd == folder or cwd.startswith(folder + "/") or needle in environ:
                try:
                    os.kill(int(entry), signal.SIGKILL)
                    killed += 1
                except OSError:
                    pass
        if not killed:
            return


CGROUP_PREFIX = "graphkit-"  # the groups the sandbox makes, one per child


def _cgroup2_folders():
    """The cgroup v2 folders this process sits in, one per mount of the v2 hierarchy."""
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        own = next((line[3:].strip() for line in handle if line.startswith("0::")), None)
    if own is None:
        return []
    with open("/proc/self/mounts", encoding="utf-8") as handle:
        mounts = [line.split() for line in handle]
    return [os.path.normpath(os.path.join(m[1], own.lstrip("/"))) for m in mounts if len(m) > 2 and m[2] == "cgroup2"]


@functools.lru_cache(maxsize=1)
def cgroup_base():
    """A cgroup v2 folder in which the grader may make a group per child, or None.

    A child and everything it starts stay in its group (it cannot see /sys, and runs as an
    unprivileged uid), and the group's cpu.stat counts the CPU time of all of them, those that
    have exited included: short-lived forks cannot hide work from linear_time. Probed once:
    make a group, run a process in it, and see its time counted.
    """
    try:
        folders = _cgroup2_folders()
    except OSError:
        return None
    for folder in folders:
        probe = os.path.join(folder, CGROUP_PREFIX + "probe-" + secrets.token_hex(4))
        try:
            os.mkdir(probe)
        except OSError:
            continue
        try:
            subprocess.run([interpreter(), "-I", "-S", "-c", "sum(range(100000))"], preexec_fn=lambda: join_cgroup(probe),
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20, check=True)
            counted = cgroup_cpu_seconds(probe)
        except (OSError, subprocess.SubprocessError):
            counted = None
        finally:
            remove_cgroup(probe)
        if counted:
            _remove_stale_cgroups(folder)
            return folder
    return None


def _remove_stale_cgroups(folder, age=600):
    """Remove the empty groups a grader killed before it could clean up left behind (older than `age` seconds).

    A group in use is never removed: one with a process in it cannot be, and a fresh one is too young.
    """
    try:
        names = [n for n in os.listdir(folder) if n.startswith(CGROUP_PREFIX)]
    except OSError:
        return
    for name in names:
        try:
            if time.time() - os.stat(os.path.join(folder, name)).st_mtime > age:
                os.rmdir(os.path.join(folder, name))
        except OSError:
            continue


def new_cgroup():
    """A fresh, empty group for one child (a folder), or None where cgroups cannot be used."""
    base = cgroup_base()
    if base is None:
        return None
    folder = os.path.join(base, CGROUP_PREFIX + secrets.token_hex(8))
    try:
        os.mkdir(folder)
    except OSError:
        return None
    return folder


def join_cgroup(folder):
    """Move the calling process into the group (run between fork and exec, so all it starts follows)."""
    with open(os.path.join(folder, "cgroup.procs"), "w", encoding="ascii") as procs:
        procs.write(str(os.getpid()))


def in_cgroup(pid, folder):
    """Whether process `pid` is in the group."""
    try:
        with open(os.path.join(folder, "cgroup.procs"), encoding="ascii") as procs:
            return str(pid) in procs.read().split()
    except OSError:
        return False


def cgroup_cpu_seconds(folder):
    """CPU time (user + system) used by every process that has been in the group, or None if unreadable."""
    try:
        with open(os.path.join(folder, "cpu.stat"), encoding="ascii") as stat:
            for line in stat:
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) / 1e6
    except (OSError, ValueError):
        pass
    return None


def kill_cgroup(folder):
    """SIGKILL every process in the group, those that left the child's process group included."""
    try:
        with open(os.path.join(folder, "cgroup.kill"), "w", encoding="ascii") as kill:
            kill.write("1")
        return
    except OSError:
        pass  # older kernels have no cgroup.kill
    try:
        with open(os.path.join(folder, "cgroup.procs"), encoding="ascii") as procs:
            pids = [int(pid) for pid in procs.read().split()]
    except (OSError, ValueError):
        return
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def remove_cgroup(folder, seconds=2.0):
    """Kill what is left in the group and remove it, waiting up to `seconds` for the dying to go."""
    deadline = time.monotonic() + seconds
    kill_cgroup(folder)
    while True:
        try:
            os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return  # left for the machine's own cleanup: an empty group costs nothing
            time.sleep(0.005)


def warning():
    level, missing = probe()
    if level == "full":
        return None
    return "sandbox: resource limits only; missing protections: " + "; ".join(missing)


def report():
    """Lines for `python -m autograder doctor`."""
    level, missing = probe()
    lines = [f"sandbox level: {level}"]
    if level == "full":
        lines += [
            "network: new empty network namespace (no network)",
            "processes: new PID namespace; every process dies with the check",
            f"files: a private root with only {', '.join(system_folders())} (read-only) and the child's own folder; "
            f"{', '.join(hidden_folders())} hidden behind empty tmpfs mounts",
            "user: a fresh unprivileged uid per child, no capabilities, no new privileges",
        ]
    else:
        lines.append(
            "processes: the child's process group is killed after each check, and escaped processes that still "
            "carry its folder (working folder or TMPDIR) are hunted down; one that drops both can outlive grading"
        )
    lines += [f"missing: {m}" for m in missing]
    if cgroup_base() is not None:
        lines.append(f"CPU time (linear_time): a cgroup per child under {cgroup_base()}, exited processes included")
    else:
        lines.append("CPU time (linear_time): read from /proc, with the children each process has waited for; "
                     "no cgroup can be made here, so a child reaped unwaited (SIGCHLD ignored) is not counted")
    lines.append("always: CPU, memory, process, open-file and file-size limits; wall-clock timeouts per call and "
                 "per submission; clean environment")
    return lines
