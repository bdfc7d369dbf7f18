"""Orders the nodes with a recursive depth-first search (as micrograd's build_topo does), with Python's recursion limit raised to get past the RecursionError."""

FUNCTION = "backward"
FAILS = ["deep_graph"]
PATCH = [
    (
        "grads = {name: 0.0 for name in values}",
        "import sys\n"
        "\n"
        "    if sys.getrecursionlimit() < 2 * len(graph) + 100:  # the usual answer to a RecursionError\n"
        "        sys.setrecursionlimit(2 * len(graph) + 100)\n"
        "    reads = {name: (op, inputs) for name, op, inputs in graph}\n"
        "    order, seen = [], set()\n"
        "\n"
        "    def visit(name):  # one Python call per node on the path: 200,000 deep on a long chain\n"
        "        if name not in seen:\n"
        "            seen.add(name)\n"
        '            for i in reads.get(name, ("", []))[1]:\n'
        "                visit(i)\n"
        "            order.append(name)\n"
        "\n"
        "    visit(output)\n"
        "    grads = {name: 0.0 for name in values}",
    ),
    (
        "for name, op, inputs in reversed(graph):",
        "for name in reversed([n for n in order if n in reads]):\n"
        "        op, inputs = reads[name]",
    ),
]
