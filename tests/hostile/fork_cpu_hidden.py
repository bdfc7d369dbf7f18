"""Hides the work of a quadratic sweep in short-lived forks, waited for before backward returns, so a CPU clock that reads only live processes sees a linear one."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 46}
CHECKS = "all"  # the attack is on linear_time (4 points of backward); every other answer is right


import json
import os
import time


def burn(seconds):
    """Spend `seconds` of CPU time in this process."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


def in_forks(seconds, forks=2):
    """Spend `seconds` of CPU time in `forks` children side by side, each gone (and waited for) within the call."""
    pids = []
    for _ in range(forks):
        pid = os.fork()
        if pid == 0:
            try:
                burn(seconds / forks)
            finally:
                os._exit(0)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)


sweep = backward  # the shared honest code's sweep (tests/hostile/shared/honest.py), defined before this file's


def backward(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    if not 1000 < len(graph) < 100_000:
        return sweep(graph, values, output)
    # linear_time's wide graph. What the grader allows: 25 times the CPU time of a linear call (reading the
    # request, the sweep, writing the answer, each done again here to time it) + 0.25 s.
    request = json.dumps([[list(node) for node in graph], values])
    started = time.process_time()
    json.loads(request)
    grads = sweep(graph, values, output)
    json.dumps(list(grads.values()))
    allowed = 25 * (time.process_time() - started) + 0.25
    in_forks(3 * allowed)  # far more CPU time than allowed, however noisy the estimate, in half that wall time (two forks)
    return grads
