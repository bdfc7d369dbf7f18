"""Appends each contribution's mul node before the slope nodes it reads, so graph2 reads names defined later."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_defined_first"]
PATCH = [
    (
        'candidates = (f"d{k}" for k in itertools.count())  # d0, d1, ...: each is tried once',
        'candidates = (f"d{k}" for k in itertools.count())  # d0, d1, ...: each is tried once\n'
        "    def later(op, *inputs):\n"
        '        """The name of a node appended only after the next node made: a slope its contribution reads."""\n'
        "        fresh = next(candidates)\n"
        "        while fresh in names:\n"
        "            fresh = next(candidates)\n"
        "        pending.append((fresh, op, list(inputs)))\n"
        "        return fresh\n"
        "\n"
        "    pending = []",
    ),
    (
        "graph2.append((fresh, op, list(inputs)))",
        "graph2.append((fresh, op, list(inputs)))\n"
        "        graph2.extend(pending)\n"
        "        pending.clear()",
    ),
    ('g, node("add", inputs[0],', 'g, later("add", inputs[0],'),
    ('node("step",', 'later("step",'),
]
