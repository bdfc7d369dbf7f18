"""Hands back the forward values as if they were the gradients: a backward that does no sweep earns nothing."""

FUNCTION = "backward"
FAILS = ["backward_every_name", "fan_out_accumulation", "reverse_order", "local_slopes", "deep_graph", "linear_time", "no_mutation"]
SCORES_ZERO = True


def backward(graph, values, output=None):
    return dict(values)
