"""Spends between one and two times the CPU time linear_time allows on its first call with the wide graph, then remembers the answer and gives it at once to any later call in the same process: a retry in the same child would pass it."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 46}
CHECKS = "all"  # the attack is on linear_time (4 points of backward); every other answer is right


import json
import time

REMEMBERED = {}  # the wide graph's answer, kept for the next call


def burn(seconds):
    """Spend `seconds` of CPU time in this process."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


sweep = backward  # the shared honest code's sweep (tests/hostile/shared/honest.py), defined before this file's


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    if not 1000 < len(graph) < 100_000:
        return sweep(graph, values, output)
    key = (len(graph), output)
    if key in REMEMBERED:
        return dict(REMEMBERED[key])
    # What the grader allows: 25 times the CPU time of a linear call (reading the request, the sweep, writing the
    # answer, each done again here to time it) + 0.25 s, which comes out above the grader's own figure. Spend 1.1 times it:
    # over the limit, under the wall-clock stop at twice it.
    started = time.process_time()
    json.loads(json.dumps([[list(node) for node in graph], values]))
    grads = sweep(graph, values, output)
    json.dumps(list(grads.values()))
    allowed = 25 * (time.process_time() - started) + 0.25
    burn(1.1 * allowed - (time.process_time() - started))
    REMEMBERED[key] = dict(grads)
    return grads
