"""How the sandbox keeps learner code away from everything but its own folder, and the command that does it.

Full isolation gives each child a new network namespace (no network), a new PID namespace (no
process outlives it, `setsid` included), a new IPC namespace (no SysV shared memory, semaphore
or queue outlives it), and a mount namespace in which it is chrooted into a root of its own: a
read-only skeleton holding only read-only binds of the system folders and the interpreter's
installation, a fresh /proc, three devices, and its own folder, a tmpfs of Limits.folder_bytes
that vanishes with it. The rest of the disk (other copies of the kit, course folders,
gradebooks, /tmp, /dev/shm) is not there at all; the kit's folder and every folder named in
HIDDEN_ENV is also covered by an empty tmpfs should it sit inside one of the binds. The child
has no capabilities and no new privileges. Two ways give it (util-linux's `unshare`, `setpriv`
and `prlimit`, coreutils' `chroot`):

- as root, the child runs under an unprivileged uid of its own, fresh for every start, so the
  process limit of one child never counts another's;
- elsewhere, where the kernel lets an unprivileged user make a user namespace, the child is
  the root of a user namespace of its own, mapped to the grader's user, with every
  capability dropped (and the securebits that keep a uid 0 from regaining them), and its
  process limit counts that namespace alone.

When neither works, a sandbox starts only if weaker isolation is asked for by name
(GRAPHKIT_SANDBOX=limits): the child then runs with resource limits in a clean temporary
folder. Even then it writes nowhere but that folder where the kernel has Landlock (landlock.py:
not the course's store, not the kit, not a results file), and it runs in a PID namespace of its
own where `unshare` can make one (as root, or through an unprivileged user namespace), so that no
process of it outlives the sandbox, setsid, chdir and a cleared environment included; its
cgroup, where one can be made, kills them too, and `sweep()` hunts processes that left its
process group. Otherwise starting one raises IsolationError, which says what is missing and the
two fixes.
"""

import functools
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.sandbox import landlock
from autograder.sandbox.removal import remove_tree

MODE_ENV = "GRAPHKIT_SANDBOX"  # =limits: the one way to ask for resource limits only
UID_BASE, UID_SPAN = 1_500_000_000, 100_000_000  # a fresh uid per child, far from real accounts
KIT_ROOT = Path(__file__).resolve().parents[2]
# Extra folders to hide from learner code (course folder, outputs), os.pathsep-separated.
HIDDEN_ENV = "GRAPHKIT_HIDE"
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
ROOT_NAME = ".root"  # inside the child's folder: the skeleton of its new root
SCRIPT_NAME = "child.pyc"  # the child's compiled script: at the top of its new root, or in its folder with limits only
DEVICES = ("null", "zero", "urandom")
PROBE_FOLDER_BYTES, PROBE_FOLDER_FILES, PROBE_PROCESSES = 1 << 20, 64, 8
# With no uid to switch to, a user namespace's root keeps no capability: none to gain back by exec.
SECUREBITS = "+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked"


class IsolationError(RuntimeError):
    """Full isolation is not available here, and weaker isolation was not asked for by name."""


# Runs as root inside the new namespaces, on the skeleton root that prepare_folder() built on disk. Arguments: the
# mount table that _mount_table() wrote beside the root, the new root, the child's folder and the chroot tool; then the
# command to run in the new root. One `mount` makes every mount of the table, in its order: the skeleton read-only
# first (in a user namespace its owner is the child's own uid), the system folders, the hidden folders, three devices,
# /proc and the child's folder. Each command costs a fork and an exec, so there are as few as can be.
_INNER = r"""
table=$1 root=$2 folder=$3 CHROOT=$4; shift 4
mount --all --fstab "$table" || exit 97
exec "$CHROOT" "$root" /bin/sh -c 'cd "$0" && exec "$@"' "$folder" "$@"
"""
MOUNTS_NAME = ".mounts"  # the mount table, in the child's folder beside its root: the child never sees it


def _field(path):
    """A path as one field of a mount table: its spaces, tabs, newlines and backslashes written as octal escapes."""
    return "".join(f"\\{ord(c):03o}" if c in " \t\n\\" else c for c in path)


def _mount_table(folder, folder_bytes, folder_files, owner):
    """Write the child's mounts as a table (fstab's format) beside its skeleton root; return the table's path.

    A folder to hide is covered only where it is there to see: inside a bound system folder, or in the skeleton.
    """
    root = os.path.join(folder, ROOT_NAME)
    binds = _binds()
    rows = [(root, root, "none", "bind,ro")]
    rows += [(bound, root + bound, "none", "rbind,ro") for bound in binds]
    for hidden in hidden_folders():
        inside = any(hidden == b or hidden.startswith(b.rstrip("/") + "/") for b in binds)
        if os.path.isdir(hidden if inside else root + hidden):
            rows.append(("graphkit-hidden", root + hidden, "tmpfs", "size=64k,mode=000"))
    rows += [(f"/dev/{device}", f"{root}/dev/{device}", "none", "bind") for device in DEVICES]
    rows.append(("proc", root + "/proc", "proc", "defaults"))
    options = f"size={folder_bytes},nr_inodes={folder_files},mode=0700,uid={owner},gid={owner}"
    rows.append(("graphkit-folder", root + folder, "tmpfs", options))
    table = os.path.join(folder, MOUNTS_NAME)
    Path(table).write_text("".join(f"{_field(s)} {_field(t)} {kind} {o} 0 0\n" for s, t, kind, o in rows))
    return table


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


def tool(name):
    """A tool's absolute path: the child's PATH is short, and chroot lives in /usr/sbin."""
    path = os.pathsep.join(("/usr/sbin", "/usr/bin", "/sbin", "/bin", os.environ.get("PATH", "")))
    return shutil.which(name, path=path) or name


def _full_prefix(variant, folder, uid, folder_bytes, folder_files, processes):
    """The command that runs the rest of the command line fully isolated, for `variant` "root" or "userns"."""
    if variant == "root":
        user = [f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        owner, limit, namespaces = uid, [], []
    else:  # the process limit is set inside the user namespace, where it counts that namespace alone: unshare too
        user, inside = [f"--securebits={SECUREBITS}"], processes + 1
        owner, namespaces = 0, ["--user", "--map-root-user"]
        limit = [tool("prlimit"), f"--nproc={inside}:{inside}", "--"]
    table = _mount_table(folder, folder_bytes, folder_files, owner)
    return [
        tool("unshare"), *namespaces, "--net", "--ipc", "--pid", "--fork", "--kill-child", "--mount",
        "--propagation", "private", "--mount-proc", "--",
        tool("sh"), "-c", _INNER, "sh", table, os.path.join(folder, ROOT_NAME), folder, tool("chroot"),
        *limit, tool("setpriv"), *user, "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--",
    ]  # fmt: skip


def asked_for_limits():
    """Whether weaker isolation was asked for by name (GRAPHKIT_SANDBOX=limits)."""
    return os.environ.get(MODE_ENV, "") == "limits"


def probe():
    """Return (level, missing): 'full' isolation or 'limits' only, and what is missing for full isolation."""
    return _probe(asked_for_limits())[:2]


def variant():
    """How full isolation is had here: "root", "userns", or None."""
    return _probe(asked_for_limits())[2]


@functools.lru_cache(maxsize=2)
def _probe(limits_asked):
    if limits_asked:
        return "limits", [f"namespaces, private root and own user turned off by {MODE_ENV}=limits"], None
    tools = (
        ("unshare", "setpriv", "chroot", "sh")
        if os.geteuid() == 0
        else ("unshare", "setpriv", "prlimit", "chroot", "sh")
    )
    missing = [name for name in tools if not os.path.isabs(tool(name))]
    if missing:
        return "limits", [f"{', '.join(missing)} not found (install util-linux and coreutils)"], None
    reasons = []
    for way in ("root", "userns") if os.geteuid() == 0 else ("userns",):
        reason = _try(way)
        if reason is None:
            return "full", [], way
        reasons.append(reason)
    if os.geteuid() != 0:
        reasons.insert(0, "not root")
    absent = "no network, PID, IPC or mount namespace, no private root and no own user: "
    return "limits", [absent + "; ".join(reasons)], None


def _try(way):
    """None if full isolation the `way` given works here, else why not."""
    folder = tempfile.mkdtemp(prefix="graphkit-probe-")
    try:
        uid = new_uid()
        prepare_folder(folder, b"", full=True)
        check = "import os; print(os.getuid(), os.access(%r, os.R_OK), os.access('.', os.W_OK))" % str(KIT_ROOT)
        command = _full_prefix(way, folder, uid, PROBE_FOLDER_BYTES, PROBE_FOLDER_FILES, PROBE_PROCESSES)
        command += [interpreter(), "-I", "-S", "-c", check]
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}  # as the child has it
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=20, cwd=folder, env=env)
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"{_way_name(way)} unavailable ({err})"
    finally:
        remove_tree(folder)
    if done.returncode != 0 or done.stdout.split() != [str(uid if way == "root" else 0), "False", "True"]:
        reason = (done.stderr.strip().splitlines() or [f"unexpected output {done.stdout.strip()!r}"])[-1]
        return f"{_way_name(way)} unavailable: {reason}"
    return None


def _way_name(way):
    return "namespaces as root" if way == "root" else "unprivileged user namespaces"


def mode():
    """How the sandbox isolates learner code here: "full", or "limits" when asked for by name.

    Raises IsolationError when full isolation is not available and GRAPHKIT_SANDBOX=limits is not set.
    """
    level, missing = probe()
    if level == "full" or asked_for_limits():
        return level
    raise IsolationError(
        "full isolation of learner code is not available here (" + "; ".join(missing) + "). Either run the "
        "grading step as root (for example with sudo), which gives each child namespaces, a private root and a uid "
        f"of its own, or set {MODE_ENV}=limits to accept weaker isolation: resource limits only, where learner "
        "code can read what the grader's user can read and use the network"
    )


def command_prefix(folder, uid, folder_bytes, folder_files, processes):
    """The command that runs the rest of the command line isolated, in `folder`, as `uid`; with limits only, a PID
    namespace of its own where one can be made (else nothing)."""
    way = variant()
    if way:
        return _full_prefix(way, folder, uid, folder_bytes, folder_files, processes)
    prefix = pid_namespace() or []
    if "--user" in prefix:  # the process limit is set inside, where it counts the namespace's processes alone
        inside = processes + 1
        prefix = [*prefix, tool("prlimit"), f"--nproc={inside}:{inside}", "--"]
    return prefix


def limits_processes_inside():
    """Whether the child's process limit is set inside a user namespace by the command prefix, not before it."""
    way = variant()
    return way == "userns" or (way is None and "--user" in (pid_namespace() or []))


def _pid_prefix(as_root):
    """unshare's command for a PID namespace whose processes all die with its first one (and it with unshare).

    Without root it is made in a user namespace of its own, left unmapped: mapping it would mean writing
    /proc/self/uid_map, which the write barrier (Landlock) forbids; the child's files are still the grader's user's.
    """
    user = [] if as_root else ["--user"]
    return [tool("unshare"), *user, "--pid", "--fork", "--kill-child", "--"]


@functools.lru_cache(maxsize=1)
def pid_namespace():
    """Limits mode: the command prefix that gives the child a PID namespace of its own, or None where none can be made.

    A process that calls setsid, changes folder and clears its environment is still in the namespace, and
    every process in it dies when its first one does.
    """
    for as_root in (True, False) if os.geteuid() == 0 else (False,):
        prefix = _pid_prefix(as_root)
        if not os.path.isabs(prefix[0]) or not (as_root or os.path.isabs(tool("prlimit"))):
            continue
        folder = tempfile.mkdtemp(prefix="graphkit-probe-")
        # as the child will have it
        barrier = (lambda folder=folder: landlock.restrict(folder)) if landlock.abi() else None
        try:
            done = subprocess.run(
                [*prefix, interpreter(), "-I", "-S", "-c", "import os; print(os.getpid())"],
                capture_output=True,
                text=True,
                timeout=20,
                env={"PATH": "/usr/bin:/bin"},
                cwd=folder,
                preexec_fn=barrier,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        finally:
            remove_tree(folder)
        if done.returncode == 0 and done.stdout.split() == ["1"]:
            return prefix
    return None


def write_barrier():
    """Whether, with limits only, the child may write beneath its own folder alone (Landlock): never needed in full."""
    return variant() is None and landlock.abi() > 0


def prepare_folder(folder, program, full=None):
    """Write the child's compiled script (a .pyc file's bytes) and, in full mode, build the skeleton of its new root
    (read-only folders to mount on, links, empty device files, the script) there, so the setup script only mounts.

    Returns the script's path as the child sees it. The child's own folder is, in full mode, a fresh tmpfs
    mounted on `folder` inside its root: nothing it writes lands on the grader's disk.
    """
    if full is None:
        full = variant() is not None
    if not full:
        path = os.path.join(folder, SCRIPT_NAME)
        Path(path).write_bytes(program)
        return path
    root = os.path.join(folder, ROOT_NAME)
    for place in ["/dev", "/proc", folder, *_binds()]:
        os.makedirs(root + place, mode=0o755, exist_ok=True)
    for link in system_folders():
        if os.path.islink(link):
            os.symlink(os.readlink(link), root + link)
    for device in DEVICES:
        open(os.path.join(root, "dev", device), "x").close()
    os.symlink("/proc/self/fd", os.path.join(root, "dev", "fd"))
    Path(root, SCRIPT_NAME).write_bytes(program)
    return "/" + SCRIPT_NAME


def sweep(folder):
    """Limits mode: kill processes that left the child's process group (os.setsid) yet still carry its
    folder as their working folder or TMPDIR. Full mode needs none of this: the PID namespace ends them all."""
    if variant() is not None:
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
