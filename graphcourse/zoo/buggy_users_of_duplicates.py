"""Adds the reader once per edge, so a node that reads the value twice (mul x x) is listed twice."""

FUNCTION = "users_of"
FAILS = ["users_of_dedup"]


def users_of(graph, name):
    readers = []
    for node, _op, inputs in graph:
        for i in inputs:
            if i == name:
                readers.append(node)
    return readers
