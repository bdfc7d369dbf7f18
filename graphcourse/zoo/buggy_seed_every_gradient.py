"""Starts every gradient at 1.0, as if each name were the output, instead of 1.0 for the output and 0.0 for the rest."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]
ALSO = {
    "fan_out_accumulation": "Each gradient below the output starts at 1.0 instead of 0.0, so every gradient the family judges is its own seed plus what its readers pass on: no graph with a name below the output escapes it.",
    "reverse_order": "Each gradient below the output starts at 1.0 instead of 0.0, so every gradient the family judges is its own seed plus what its readers pass on: no graph with a name below the output escapes it.",
    "local_slopes": "Each gradient below the output starts at 1.0 instead of 0.0, so every gradient the family judges is its own seed plus what its readers pass on: no graph with a name below the output escapes it.",
}
PATCH = [
    (
        "grads = {name: 0.0 for name in values}\n"
        "    grads[output] = 1.0",
        "grads = {name: 1.0 for name in values}",
    ),
]
