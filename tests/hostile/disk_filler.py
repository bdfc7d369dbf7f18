"""Fills its folder at import with 8 MiB files (the per-file cap) up to 96 MiB; evaluate is honest only if all of it fits, which a cap on the folder's total stops."""

EXPECTED = {"evaluate": 0, "inputs_of": "full", "users_of": "full", "backward": "full"}
NEEDS = "full"  # the folder is a sized tmpfs only in the full sandbox


import os

FILE, WANTED = 8 << 20, 96 << 20


def fill():
    written, block = 0, b"\x01" * FILE
    while written < WANTED:
        try:
            with open(f"fill-{written // FILE}", "wb") as handle:
                written += handle.write(block)
        except OSError:
            break
    return written


WRITTEN = fill()


def evaluate(graph, leaves):
    if WRITTEN < WANTED:
        raise RuntimeError(f"only {WRITTEN >> 20} MiB fit in the folder")
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"{name} reads {i}, which has no value yet")
        values[name] = FORWARD[op](*[values[i] for i in inputs])
    return values
