"""Returns an empty dict whatever the graph: an evaluate that ignores its input earns nothing."""

FUNCTION = "evaluate"
FAILS = ["evaluate_values", "wrong_order_valueerror", "no_mutation"]
SCORES_ZERO = True


def evaluate(graph, leaves):
    return {}
