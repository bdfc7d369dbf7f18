"""Hands back the leaves unchanged, computing no node: an evaluate that ignores the graph earns nothing."""

FUNCTION = "evaluate"
FAILS = ["evaluate_values", "wrong_order_valueerror", "no_mutation"]
SCORES_ZERO = True


def evaluate(graph, leaves):
    return dict(leaves)
