"""Works out all local slopes first and then reuses the values dict to hold the gradients, overwriting the caller's values."""

FUNCTION = "backward"
FAILS = ["no_mutation"]
PATCH = [
    (
        "grads = {name: 0.0 for name in values}",
        "edges = []  # (node, input, local slope), in listed order\n"
        "    for name, op, inputs in graph:\n"
        "        local = slopes[op](*(values[i] for i in inputs), values[name])\n"
        "        for i, slope in zip(inputs, local):\n"
        "            edges.append((name, i, slope))\n"
        "    grads = values  # the values are no longer needed, so the same dict can hold the gradients\n"
        "    for name in grads:\n"
        "        grads[name] = 0.0",
    ),
    (
        "for name, op, inputs in reversed(graph):\n"
        "        local = slopes[op](*(values[i] for i in inputs), values[name])\n"
        "        for i, slope in zip(inputs, local):\n"
        "            grads[i] += grads[name] * slope  # add, never assign: fan-out sums",
        "for name, i, slope in reversed(edges):\n"
        "        grads[i] += grads[name] * slope",
    ),
]
