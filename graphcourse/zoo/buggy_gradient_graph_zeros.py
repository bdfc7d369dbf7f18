"""Maps every name to one node of value 0.0, whatever the graph: an answer that ignores its input earns nothing."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_first", "gradient_graph_names", "gradient_graph_fan_out", "gradient_graph_fresh",
         "gradient_graph_defined_first", "gradient_graph_second", "gradient_graph_size", "gradient_graph_deep",
         "gradient_graph_no_mutation"]
SCORES_ZERO = True


def gradient_graph(graph, output=None):
    names = {name for node, _op, inputs in graph for name in (node, *inputs)}
    zero = "zero"
    while zero in names:
        zero += "_"
    seed = zero + "1"
    while seed in names:
        seed += "_"
    graph2 = [(name, op, list(inputs)) for name, op, inputs in graph]
    graph2 += [(seed, "one", []), (zero, "sub", [seed, seed])]
    return graph2, {name: zero for name in names}
