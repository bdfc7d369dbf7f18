"""Sleeps most of the per-call timeout before every honest answer, so a grader without a budget per submission is held for half an hour."""

EXPECTED = {"evaluate": 8, "inputs_of": 0, "users_of": 0, "backward": 0}
CHECKS = "all"  # the budget ends grading wherever it runs out, so the points are partial
# The kit's limits scaled down with the pause (9 s to 2.7 s): each call still answers within its own timeout
# (4 s), and the budget pays for the same six calls (6 x 2.7 = 16.2 s, loading included; a seventh would end
# past 18.9 s). Evaluate_values' first two checks (3 + 2 calls, 3 + 5 points) pass, the sixth call is the
# first of its third check, and every check after that fails out of time.
LIMITS = {"call_seconds": 4.0, "load_seconds": 5.0, "submission_seconds": 18.5}


import time


PAUSE = 2.7


# the shared honest code's functions (tests/hostile/shared/honest.py), defined before this file's
honest_evaluate = evaluate
honest_inputs_of = inputs_of
honest_users_of = users_of
honest_backward = backward


def evaluate(graph, leaves):
    time.sleep(PAUSE)
    return honest_evaluate(graph, leaves)


def inputs_of(graph, name):
    time.sleep(PAUSE)
    return honest_inputs_of(graph, name)


def users_of(graph, name):
    time.sleep(PAUSE)
    return honest_users_of(graph, name)


def backward(graph, values, output=None):
    time.sleep(PAUSE)
    return honest_backward(graph, values, output)
