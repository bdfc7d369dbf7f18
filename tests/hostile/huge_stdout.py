"""Prints 200 MB on stdout and stderr while loading and 200 MB more in its first inputs_of call; every function is honest."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import sys


BLOCK = "x" * ((1 << 20) - 1) + "\n"
for _ in range(100):
    sys.stdout.write(BLOCK)
    sys.stderr.write(BLOCK)
sys.stdout.flush()
CALLS = []


def inputs_of(graph, name):
    if not CALLS:
        for _ in range(200):
            sys.stdout.write(BLOCK)
        sys.stdout.flush()
    CALLS.append(name)
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])
