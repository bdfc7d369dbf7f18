"""Keeps the names the output depends on in a list, so every membership test scans it and backward turns quadratic."""

FUNCTION = "backward"
FAILS = ["linear_time"]
PATCH = [
    (
        "output = graph[-1][0]",
        "output = graph[-1][0]\n"
        "    nodes = {name: (op, inputs) for name, op, inputs in graph}\n"
        "\n"
        "    # first find everything the output depends on\n"
        "    seen = [output]\n"
        "    stack = [output]\n"
        "    while stack:\n"
        "        name = stack.pop()\n"
        "        if name in nodes:\n"
        "            for i in nodes[name][1]:\n"
        "                if i not in seen:\n"
        "                    seen.append(i)\n"
        "                    stack.append(i)",
    ),
    (
        "for name, op, inputs in reversed(graph):",
        "for name, op, inputs in reversed(graph):\n"
        "        if name not in seen:\n"
        "            continue",
    ),
]
