"""Sleeps most of the per-call timeout before every honest answer, so a grader without a budget per submission is held for half an hour."""

EXPECTED = {"evaluate": 8, "inputs_of": 0, "users_of": 0, "backward": 0}
CHECKS = "all"  # the budget ends grading wherever it runs out, so the points are partial
# The kit's limits scaled down with the pause (9 s to 1.35 s): each call still answers within its own timeout
# (2 s), and the budget pays for the same six calls (6 x 1.35 = 8.1 s, loading included; a seventh would end
# past 9.45 s). Evaluate_values' first two checks (3 + 2 calls, 3 + 5 points) pass, the sixth call is the
# first of its third check, and every check after that fails out of time.
LIMITS = {"call_seconds": 2.0, "load_seconds": 2.5, "submission_seconds": 9.25}


import time


PAUSE = 1.35


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
