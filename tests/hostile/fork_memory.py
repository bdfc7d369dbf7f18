"""Forks four children in backward that each fill 100 MiB, under a per-process limit of 192 MiB: only a cap on the whole tree stops 400 MiB; backward is honest only when they all succeed."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}
LIMITS = {"memory_bytes": 201_326_592, "sandbox_memory_bytes": 268_435_456}  # 192 and 256 MiB: the attack plays out as at the kit's own sizes


import os
import select
import time

CHILDREN, EACH = 4, 100 << 20
TREE = None  # bytes the tree held at once, measured on the first call


def hold():
    """In a child: fill EACH bytes, say so on the pipe, then wait to be killed."""
    try:
        with open("/proc/self/oom_score_adj", "w") as adj:
            adj.write("1000")  # the first to go when the tree runs out
    except OSError:
        pass
    block = b"\x01" * EACH
    os.write(WRITE, b"+")
    time.sleep(30)
    return block


def tree_memory():
    """Bytes CHILDREN children could hold at once."""
    global WRITE
    read, WRITE = os.pipe()
    pids = []
    for _ in range(CHILDREN):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                hold()
            finally:
                os._exit(0)
        pids.append(pid)
    held, gone, deadline = 0, set(), time.monotonic() + 5
    while held < len(pids) and held + len(gone) < len(pids) and time.monotonic() < deadline:
        if select.select([read], [], [], 0.1)[0]:
            held += len(os.read(read, 64))
        for pid in set(pids) - gone:
            if os.waitpid(pid, os.WNOHANG)[0]:
                gone.add(pid)  # killed before it could say it held its share
    time.sleep(0.2)  # a child killed for memory just now is gone by then
    alive = [pid for pid in set(pids) - gone if os.waitpid(pid, os.WNOHANG)[0] == 0]
    for pid in alive:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except OSError:
            pass
    os.close(read)
    os.close(WRITE)
    return min(held, len(alive)) * EACH  # each child says so once it holds its share: these held theirs at once


# the shared honest code's functions (tests/hostile/shared/honest.py), defined before this file's
honest_backward = backward


def backward(graph, values, output=None):
    global TREE
    if TREE is None:
        TREE = tree_memory()
    if TREE < CHILDREN * EACH:
        raise RuntimeError(f"the tree held only {TREE >> 20} MiB")
    return honest_backward(graph, values, output)
