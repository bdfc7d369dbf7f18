"""Sleeps forever while the module loads, after defining honest functions."""

EXPECTED = {"evaluate": 0, "inputs_of": 0, "users_of": 0, "backward": 0}
LIMITS = {"load_seconds": 3.0}  # the load timeout scaled by 0.3: loading still times out


import time


time.sleep(10**9)
