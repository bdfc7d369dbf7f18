"""Removes duplicate readers with a set and then sorts them by name, losing the graph order."""

FUNCTION = "users_of"
FAILS = ["users_of_order"]


def users_of(graph, name):
    readers = set()
    for node, _op, inputs in graph:
        if name in inputs:
            readers.add(node)
    return sorted(readers)
