"""Returns an empty dict whatever the graph: a backward that ignores its input earns nothing."""

FUNCTION = "backward"
FAILS = ["backward_every_name", "fan_out_accumulation", "reverse_order", "local_slopes", "deep_graph", "linear_time", "no_mutation"]
SCORES_ZERO = True


def backward(graph, values, output=None):
    return {}
