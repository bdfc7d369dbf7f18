"""Keeps the names already used in a list, so each new name searches the whole list: right, but quadratic in the graph's size."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_deep"]
PATCH = [
    (
        "{}  # every name graph reads or produces, in order of appearance",
        "[]  # every name graph reads or produces, in order of appearance: a list, searched at every step",
    ),
    (
        "names.update(dict.fromkeys(inputs))\n"
        "        names[name] = None",
        "for read in inputs:\n"
        "            if read not in names:\n"
        "                names.append(read)\n"
        "        if name not in names:\n"
        "            names.append(name)",
    ),
]
