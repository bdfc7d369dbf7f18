"""Maps every name in values to 0.0 without sweeping: the right names with no work earn nothing."""

FUNCTION = "backward"
FAILS = ["backward_every_name", "fan_out_accumulation", "reverse_order", "local_slopes", "deep_graph", "linear_time", "no_mutation"]
SCORES_ZERO = True


def backward(graph, values, output=None):
    return {name: 0.0 for name in values}
