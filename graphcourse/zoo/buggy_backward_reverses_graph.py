"""Reverses the graph list in place with graph.reverse() before the sweep, so the caller's graph comes back reversed."""

FUNCTION = "backward"
FAILS = ["no_mutation"]
PATCH = [
    (
        "for name, op, inputs in reversed(graph):",
        "graph.reverse()\n"
        "    for name, op, inputs in graph:",
    ),
]
