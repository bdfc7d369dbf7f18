"""Looks the name up in a dict of nodes, so a leaf or an unknown name raises KeyError instead of giving []."""

FUNCTION = "inputs_of"
FAILS = ["inputs_of_edges"]


def inputs_of(graph, name):
    table = {node: inputs for node, _op, inputs in graph}
    return list(table[name])
