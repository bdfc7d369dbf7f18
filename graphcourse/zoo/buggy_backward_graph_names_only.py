"""Collects the names to report from the graph's tuples rather than from values, so a leaf that no node reads is missing."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]
PATCH = [
    (
        "grads = {name: 0.0 for name in values}",
        "grads = {}\n"
        "    for name, op, inputs in graph:\n"
        "        grads[name] = 0.0\n"
        "        for i in inputs:\n"
        "            grads[i] = 0.0",
    ),
]
