"""Forks sleeping children at import until the process limit stops it, and exits in backward so every restart floods again."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}
CHECKS = "mini"  # every call of backward exits and every restart floods again: more checks only repeat it


import os


MARKER = "graphkit-hostile-fork_flood"
SLEEPERS = []
for _ in range(200):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            os.execv("/bin/sleep", [MARKER, "3600"])
        finally:
            os._exit(0)
    SLEEPERS.append(pid)
print(f"{MARKER}: {len(SLEEPERS)} sleeping children")


def backward(graph, values, output=None):
    os._exit(3)
