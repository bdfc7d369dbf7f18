"""Looks for the grader's environment (NBGRADER_*, PYTEST_*, PYTHON*, GRAPHKIT_*, ...) and answers wrong if any of it leaked in."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": "full"}


import os


ALLOWED = {"PATH", "HOME", "TMPDIR", "LANG", "PWD", "SHLVL", "OLDPWD", "_", "LC_CTYPE"}
PREFIXES = ("NBGRADER", "PYTEST", "PYTHON", "GRAPHKIT", "JPY", "JUPYTER", "VIRTUAL_ENV", "HYPOTHESIS", "CI")
LEAKED = sorted(key for key in os.environ if key not in ALLOWED or key.startswith(PREFIXES))
print(f"graphkit-hostile-env_probe: leaked {LEAKED}")


# the shared honest code's functions (tests/hostile/shared/honest.py), defined before this file's
honest_evaluate = evaluate
honest_inputs_of = inputs_of
honest_users_of = users_of
honest_backward = backward


def evaluate(graph, leaves):
    if LEAKED:
        return {}
    return honest_evaluate(graph, leaves)


def inputs_of(graph, name):
    if LEAKED:
        return ["leaked"]
    return honest_inputs_of(graph, name)


def users_of(graph, name):
    if LEAKED:
        return ["leaked"]
    return honest_users_of(graph, name)


def backward(graph, values, output=None):
    if LEAKED:
        return {}
    return honest_backward(graph, values, output)
