"""Always differentiates the last node and ignores the output argument."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]
PATCH = [
    (
        "if output is None:\n"
        "        output = graph[-1][0]",
        "last = graph[-1][0]",
    ),
    ("grads[output]", "grads[last]"),
]
