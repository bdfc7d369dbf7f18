"""Makes a 16 MiB SysV shared memory segment at import and dies in inputs_of; inputs_of is honest once a later child finds the segment, which only a new IPC namespace per child keeps from outliving it."""

EXPECTED = {"evaluate": "full", "inputs_of": 0, "users_of": "full", "backward": "full"}
NEEDS = "full"  # a new IPC namespace per child


import ctypes
import os

KEY, SIZE, IPC_CREAT, IPC_RMID = 0x67_6B_73_68, 16 << 20, 0o1000, 0  # the key spells "gksh"
LIBC = ctypes.CDLL(None, use_errno=True)


def segment():
    """The id of the segment KEY, or -1 when there is none (or none this child may open)."""
    return LIBC.shmget(KEY, 0, 0)


FOUND = segment() != -1  # left by an earlier child of this very grading
if FOUND:
    LIBC.shmctl(segment(), IPC_RMID, None)  # gone once this child exits, where it may remove it
else:
    LIBC.shmget(KEY, SIZE, IPC_CREAT | 0o666)


def inputs_of(graph, name):
    if not FOUND:
        os._exit(3)
    return next((list(inputs) for node, _op, inputs in graph if node == name), [])
