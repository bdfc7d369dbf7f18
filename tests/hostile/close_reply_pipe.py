"""Closes its end of the reply pipe in users_of and then sleeps, so the parent sees end-of-file from a child that is still alive."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": "full"}
LIMITS = {"call_seconds": 3.0, "struck_call_seconds": 0.3}  # timeouts scaled by 0.3: the parent still waits no longer than one call


import os
import sys
import time


def users_of(graph, name):
    os.close(int(sys.argv[2]))
    time.sleep(3600)
