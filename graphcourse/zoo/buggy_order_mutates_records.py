"""Uses the caller's dict as its list of nodes still to place, deleting each one it lists: the records are gone."""

FUNCTION = "topological_order"
FAILS = ["order_no_mutation"]
PATCH = [
    (
        "readers = {name: [] for name in nodes}",
        "total = len(nodes)\n"
        "    readers = {name: [] for name in nodes}",
    ),
    ("op, inputs = nodes[name]", "op, inputs = nodes.pop(name)  # placed, so no longer waiting"),
    ("if len(graph) < len(nodes):", "if len(graph) < total:"),
]
