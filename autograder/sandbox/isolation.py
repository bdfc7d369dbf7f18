"""What this machine lets the sandbox do beyond resource limits, and the command prefix that does it.

As root with util-linux's `unshare` and `setpriv`, each child gets a new network namespace (no
network), a new PID namespace (no process outlives it, `setsid` included), a mount namespace in
which the kit's folder and every folder named in HIDDEN_ENV is covered by an empty tmpfs, and
an unprivileged uid. Elsewhere the child runs with resource limits in a clean temporary
folder, and `warning()` says which protections are missing.
"""

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

NOBODY = 65534
KIT_ROOT = Path(__file__).resolve().parents[2]
# Extra folders to hide from learner code (course folder, outputs), os.pathsep-separated.
HIDDEN_ENV = "GRAPHKIT_HIDE"

_INNER = 'for d in "$@"; do case "$d" in --) break;; esac; mount -t tmpfs -o size=64k,mode=000 none "$d" || exit 97; done; '
_INNER += 'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"'


def hidden_folders():
    folders = [KIT_ROOT] + [Path(p) for p in os.environ.get(HIDDEN_ENV, "").split(os.pathsep) if p]
    return [str(f.resolve()) for f in folders if f.is_dir()]


def interpreter():
    """The base interpreter: a venv's python may live inside a folder the child cannot see."""
    return os.path.realpath(sys.executable)


def _full_prefix():
    return [
        "unshare", "--net", "--pid", "--fork", "--kill-child", "--mount", "--propagation", "private",
        "--mount-proc", "--", "sh", "-c", _INNER, "sh", *hidden_folders(), "--",
        "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--no-new-privs", "--",
    ]  # fmt: skip


@functools.lru_cache(maxsize=1)
def probe():
    """Return (level, missing): 'full' isolation or 'limits' only, and what is missing."""
    if os.environ.get("GRAPHKIT_SANDBOX") == "limits":
        return "limits", ["namespaces and uid switch turned off by GRAPHKIT_SANDBOX=limits"]
    if os.geteuid() != 0:
        return "limits", ["not root: no network, PID or mount namespace and no uid switch"]
    missing = [tool for tool in ("unshare", "setpriv", "sh") if shutil.which(tool) is None]
    if missing:
        return "limits", [f"{', '.join(missing)} not found (install util-linux)"]
    test = _full_prefix() + [interpreter(), "-I", "-S", "-c", "import os; print(os.getuid())"]
    try:
        done = subprocess.run(test, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as err:
        return "limits", [f"namespaces unavailable ({err})"]
    if done.returncode != 0 or done.stdout.strip() != str(NOBODY):
        reason = (done.stderr.strip().splitlines() or ["unknown error"])[-1]
        return "limits", [f"namespaces unavailable: {reason}"]
    return "full", []


def command_prefix():
    return _full_prefix() if probe()[0] == "full" else []


def prepare_folder(folder):
    """Give the child's private temp folder to the uid it will run as."""
    if probe()[0] == "full":
        os.chown(folder, NOBODY, NOBODY)
        for entry in Path(folder).iterdir():
            os.chown(entry, NOBODY, NOBODY)


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
            f"files: {', '.join(hidden_folders())} hidden behind empty tmpfs mounts",
            f"user: uid {NOBODY}, no new privileges",
        ]
    lines += [f"missing: {m}" for m in missing]
    lines.append("always: CPU, memory, process, open-file and file-size limits; wall-clock timeouts; clean environment")
    return lines
