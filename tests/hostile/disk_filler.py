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


# the shared honest code's functions (tests/hostile/shared/honest.py), defined before this file's
honest_evaluate = evaluate


def evaluate(graph, leaves):
    if WRITTEN < WANTED:
        raise RuntimeError(f"only {WRITTEN >> 20} MiB fit in the folder")
    return honest_evaluate(graph, leaves)
