"""Returns the graph's own inputs list instead of a copy, so changing the answer changes the graph."""

FUNCTION = "inputs_of"
FAILS = ["inputs_of_edges"]


def inputs_of(graph, name):
    for node, _op, inputs in graph:
        if node == name:
            return inputs
    return []
