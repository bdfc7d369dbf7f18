"""Returns 1 whatever the graph, as if every output were a leaf: a tree_size that ignores its input earns nothing."""

FUNCTION = "tree_size"
FAILS = ["tree_size_values", "tree_size_deep"]
SCORES_ZERO = True


def tree_size(graph, output):
    return 1
