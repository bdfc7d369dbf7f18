"""On records with a cycle, returns the nodes it managed to place instead of raising: the cycle goes unreported."""

FUNCTION = "topological_order"
FAILS = ["order_cycle"]
PATCH = [
    (
        "raise ValueError(\n"
        '            f"the records have a cycle, so no order exists: node {name!r} depends on itself ({shown}, "\n'
        '            "each reading the next)"\n'
        "        )",
        "return graph  # the nodes placed so far: the cycle goes unreported",
    ),
]
