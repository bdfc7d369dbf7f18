"""Lists the leaves too, as entries ("x", "leaf", []) ahead of the nodes: leaves are not nodes of the graph."""

FUNCTION = "topological_order"
FAILS = ["order_leaves"]
PATCH = [
    (
        "graph = []  # the nodes listed so far, each after its inputs",
        "leaves = [i for _op, inputs in nodes.values() for i in inputs if i not in nodes]\n"
        '    graph = [(leaf, "leaf", []) for leaf in dict.fromkeys(leaves)]  # the leaves first, as entries',
    ),
    ("if len(graph) < len(nodes):", "if any(count > 0 for count in waiting.values()):"),
]
