"""Returns an empty dict whatever the graph: an answer that ignores its input earns nothing."""

FUNCTION = "saved_for_backward"
FAILS = ["saved_per_op", "saved_once", "memory_no_mutation"]
SCORES_ZERO = True


def saved_for_backward(graph):
    return {}
