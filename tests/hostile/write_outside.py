"""Tries to write files into the kit folder, /tmp, /var/tmp, /dev/shm and other processes' folders; honest only if every write fails."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}
NEEDS = "full"  # only the full sandbox keeps the disk out of reach


import os
import time


SKIP = ("/proc", "/sys", "/dev")
FIRST = ("/work", "/home", "/srv", "/opt", "/tmp", "/var", "/mnt", "/root", "/run", "/media", "/farm")


def pids():
    try:
        return [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return []


def walk_roots():
    """Folders to walk: the current folder and its parents, then everything under /, likely places first."""
    roots, here = [], os.getcwd()
    while True:
        roots.append(here)
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    try:
        top = sorted(os.listdir("/"), key=lambda entry: ("/" + entry) not in FIRST)
    except OSError:
        top = []
    roots += ["/" + entry for entry in top]
    return [root for root in roots if root != "/" and not root.startswith(SKIP)]


def folders(budget):
    """Every folder this process can see, walked until the time budget runs out."""
    deadline = time.monotonic() + budget
    for pid in pids():  # what other processes have open: /proc/<pid>/cwd and /proc/<pid>/root
        for link in ("cwd", "root"):
            yield f"/proc/{pid}/{link}"
            yield f"/proc/{pid}/{link}/.."
    seen = set()
    for root in walk_roots():
        for folder, subfolders, _files in os.walk(root):
            if time.monotonic() > deadline:
                return
            if folder in seen:
                subfolders[:] = []
                continue
            seen.add(folder)
            subfolders[:] = [d for d in subfolders if not os.path.join(folder, d).startswith(SKIP)]
            yield folder


MARKER = "graphkit-hostile-write_outside"


def kit_folders(budget):
    """Folders that look like the kit: they hold autograder/ and solutions/."""
    return [f for f in folders(budget) if os.path.isdir(os.path.join(f, "autograder")) and os.path.isdir(os.path.join(f, "solutions"))]


def targets():
    """Places outside its own folder (writing there is allowed, and removed with the sandbox)."""
    places = ["/tmp", "/var/tmp", "/dev/shm", "/", os.path.dirname(os.getcwd())]
    places += [f"/proc/{pid}/cwd" for pid in pids()]
    for kit in kit_folders(budget=2.0):
        places += [kit, os.path.join(kit, "solutions"), os.path.join(kit, "autograder", "checks"), os.path.join(kit, "tests")]
    own = os.path.realpath(os.getcwd())
    return [p for p in places if not (os.path.realpath(p) + "/").startswith(own + "/")]


WROTE = []
for place in targets():
    path = os.path.join(place, f"{MARKER}-{os.urandom(4).hex()}.txt")
    try:
        with open(path, "x") as handle:
            handle.write("written by a hostile submission\n")
        WROTE.append(path)
    except OSError:
        pass
with open("scratch.txt", "w") as handle:  # its own folder: allowed, removed with the sandbox
    handle.write("scratch\n")
print(f"{MARKER}: wrote {WROTE}")


# the shared honest code's functions (tests/hostile/shared/honest.py), defined before this file's
honest_backward = backward


def backward(graph, values, output=None):
    """Right, unless one of the writes above got through."""
    if WROTE:
        return {}
    return honest_backward(graph, values, output)
