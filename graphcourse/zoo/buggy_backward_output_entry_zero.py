"""Uses 1.0 as the output's gradient during the sweep but never stores it, so the output's own entry stays 0.0."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]
PATCH = [
    (
        "grads[output] = 1.0\n"
        "    for name, op, inputs in reversed(graph):",
        "for name, op, inputs in reversed(graph):",
    ),
    (
        "for name, op, inputs in reversed(graph):",
        "for name, op, inputs in reversed(graph):\n"
        "        upstream = 1.0 if name == output else grads[name]",
    ),
    ("grads[name] * slope  # add, never assign: fan-out sums", "upstream * slope"),
]
