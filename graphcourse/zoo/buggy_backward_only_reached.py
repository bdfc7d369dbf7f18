"""Starts the gradient dict from the output alone, so names the output does not depend on are missing instead of 0.0."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]
PATCH = [
    (
        "grads = {name: 0.0 for name in values}\n"
        "    grads[output] = 1.0",
        "grads = {output: 1.0}",
    ),
    (
        "for name, op, inputs in reversed(graph):",
        "for name, op, inputs in reversed(graph):\n"
        "        if name not in grads:\n"
        "            continue  # the output does not go through this node",
    ),
    ("+= grads[name] * slope  # add, never assign: fan-out sums", "= grads.get(i, 0.0) + grads[name] * slope"),
]
