"""Calls os._exit(0) inside backward, killing the process in the middle of every backward call."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}
CHECKS = "mini"  # every call of backward kills the child: more checks only repeat the restart


import os


def backward(graph, values, output=None):
    os._exit(0)
