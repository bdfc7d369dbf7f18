"""Returns [] for every name, as if nothing read anything: a users_of that ignores its input earns nothing."""

FUNCTION = "users_of"
FAILS = ["users_of_dedup", "users_of_order"]
SCORES_ZERO = True


def users_of(graph, name):
    return []
