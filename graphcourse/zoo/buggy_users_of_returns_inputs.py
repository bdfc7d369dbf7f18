"""Confuses the two directions of an edge and returns what the name reads instead of the nodes that read it."""

FUNCTION = "users_of"
FAILS = ["users_of_dedup", "users_of_order"]


def users_of(graph, name):
    for node, _op, inputs in graph:
        if node == name:
            readers = []
            for i in inputs:
                if i not in readers:
                    readers.append(i)
            return readers
    return []
