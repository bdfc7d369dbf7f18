"""Counts the distinct names the output depends on, once each: that is the tape's size with sharing, not the tree's."""

FUNCTION = "tree_size"
FAILS = ["tree_size_values"]


def tree_size(graph, output):
    inputs = {name: names for name, _op, names in graph}
    seen, todo = set(), [output]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(inputs.get(name, []))
    return len(seen)
