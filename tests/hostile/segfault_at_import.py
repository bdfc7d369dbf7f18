"""Crashes the child with a segmentation fault (SIGSEGV, through faulthandler's own test hook) while the module loads."""

EXPECTED = {"evaluate": 0, "inputs_of": 0, "users_of": 0, "backward": 0}
HONEST = False  # the definitions made before the crash are graded, so no shared honest code goes before it


import faulthandler


def evaluate(graph, leaves):
    return dict(leaves)


faulthandler._sigsegv()
