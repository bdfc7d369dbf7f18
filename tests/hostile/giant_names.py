"""Answers with enormous names: 200,000-character keys from evaluate and backward, a 9,000-character name from users_of, so no message may quote them whole."""

EXPECTED = {"evaluate": 0, "inputs_of": "full", "users_of": 0, "backward": 0}
CHECKS = "mini"  # the same answers on every call: one check of each family has each judge quote them


HUGE = "n" * 200_000  # far over what a reply may hold in one string
LONG = "m" * 9_000  # under that, so the judge must cut what it quotes


def evaluate(graph, leaves):
    return {HUGE: 1.0}


def users_of(graph, name):
    return [LONG]


def backward(graph, values, output=None):
    return {HUGE: 1.0, LONG: 2.0}
