"""Pulls each gradient from the distinct nodes that read it, so a node that reads a value twice (mul x x) is counted once."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation"]
BASE = "buggy_quadratic_reader_scan"
PATCH = [
    (
        "    nodes = {name: (op, inputs) for name, op, inputs in graph}\n",
        """    nodes = {name: (op, inputs) for name, op, inputs in graph}
    readers = {}
    for name, op, inputs in graph:
        for i in set(inputs):
            readers.setdefault(i, []).append(name)

""",
    ),
    ("for reader in users_of(graph, name):", "for reader in readers.get(name, []):"),
    (
        "            for i, slope in zip(inputs, local):\n                if i == name:\n"
        "                    total += grads[reader] * slope",
        "            total += grads[reader] * local[inputs.index(name)]",
    ),
]
