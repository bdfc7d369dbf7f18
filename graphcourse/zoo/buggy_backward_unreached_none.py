"""Marks names that have not received a gradient with None and leaves it there, instead of 0.0, for names the output does not depend on."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]
PATCH = [
    ("{name: 0.0 for", "{name: None for"),
    (
        "for name, op, inputs in reversed(graph):",
        "for name, op, inputs in reversed(graph):\n"
        "        if grads[name] is None:\n"
        "            continue  # no gradient has arrived here",
    ),
    (
        "grads[i] += grads[name] * slope  # add, never assign: fan-out sums",
        "if grads[i] is None:\n"
        "                grads[i] = grads[name] * slope\n"
        "            else:\n"
        "                grads[i] += grads[name] * slope",
    ),
]
