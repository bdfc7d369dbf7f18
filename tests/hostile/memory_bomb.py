"""Allocates 4 GiB at once, then grows 64 MiB at a time, in backward (and tries 4 GiB at import, catching the error)."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}


HOARD = []
try:
    HOARD.append(bytearray(4 << 30))
except MemoryError:
    pass


def backward(graph, values, output=None):
    try:
        HOARD.append(bytearray(4 << 30))
    except MemoryError:
        pass
    while True:
        HOARD.append(b"\x01" * (64 << 20))
