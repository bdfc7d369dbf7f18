"""Sizes each input by a recursive call (remembering the sizes found): right, but a chain of 10,000 overflows the call stack."""

FUNCTION = "tree_size"
FAILS = ["tree_size_deep"]


def tree_size(graph, output):
    inputs = {name: names for name, _op, names in graph}
    sizes = {}

    def size(name):
        if name not in inputs:
            return 1
        if name not in sizes:
            sizes[name] = 1 + sum(size(i) for i in inputs[name])
        return sizes[name]

    return size(output)
