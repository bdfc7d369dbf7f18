"""Keys one node's slopes by input name, so a node that reads the same value twice (mul x x) passes back only one contribution."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation"]
PATCH = [
    (
        "for i, slope in zip(inputs, local):",
        "slope_of = dict(zip(inputs, local))  # input name -> its slope\n"
        "        for i, slope in slope_of.items():",
    ),
]
