"""Leaves a chain of folders 3,000 deep in its folder at import, deeper than a recursive removal can go; every function is honest."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import os

DEPTH = 3000


def chain():
    top = os.open(".", os.O_RDONLY)
    try:
        for _ in range(DEPTH):
            os.mkdir("d")
            os.chdir("d")
    except OSError:
        pass
    finally:
        os.fchdir(top)
        os.close(top)


chain()
