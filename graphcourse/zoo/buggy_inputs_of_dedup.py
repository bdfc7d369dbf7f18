"""Skips an input it has already listed, so mul x x reports one edge from x instead of two."""

FUNCTION = "inputs_of"
FAILS = ["inputs_of_edges"]


def inputs_of(graph, name):
    for node, _op, inputs in graph:
        if node == name:
            result = []
            for i in inputs:
                if i not in result:
                    result.append(i)
            return result
    return []
