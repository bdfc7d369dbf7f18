"""Calls os._exit(0) while the module loads, after defining honest functions."""

EXPECTED = {"evaluate": 0, "inputs_of": 0, "users_of": 0, "backward": 0}


import os


os._exit(0)
