"""Names every leaf and node with the value 0.0, applying no op: the right names with no work earn nothing."""

FUNCTION = "evaluate"
FAILS = ["evaluate_values", "wrong_order_valueerror", "no_mutation"]
SCORES_ZERO = True


def evaluate(graph, leaves):
    values = {name: 0.0 for name in leaves}
    values.update((name, 0.0) for name, _op, _inputs in graph)
    return values
