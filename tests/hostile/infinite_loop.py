"""Spins forever (while True: pass) in backward; evaluate, inputs_of and users_of stay honest."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}
LIMITS = {"call_seconds": 3.0, "struck_call_seconds": 0.3}  # timeouts scaled by 0.3: each call of backward still times out
CHECKS = "mini"  # every call of backward spins until it is struck: more checks only repeat the timeout


def backward(graph, values, output=None):
    while True:
        pass
