"""Raises the recursion limit to 10**6 in backward and recurses through C, which would overflow the interpreter's stack (a segfault): the child holds the limit at 1,000, so backward raises RecursionError."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}


import sys


class Abyss:
    """Every attribute lookup looks itself up again, one C stack frame deeper."""

    def __getattr__(self, name):
        return getattr(self, name)


def backward(graph, values, output=None):
    sys.setrecursionlimit(10**6)
    return Abyss().gradients
