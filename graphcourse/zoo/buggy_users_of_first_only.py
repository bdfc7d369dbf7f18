"""Returns as soon as it finds a reader, so only the first node that reads the name is reported."""

FUNCTION = "users_of"
FAILS = ["users_of_order"]


def users_of(graph, name):
    for node, _op, inputs in graph:
        if name in inputs:
            return [node]
    return []
