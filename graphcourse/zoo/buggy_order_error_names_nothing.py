"""Raises ValueError on a cycle, but its message names no node, so the recorder's author cannot tell where to look."""

FUNCTION = "topological_order"
FAILS = ["order_cycle"]
PATCH = [
    (
        "raise ValueError(\n"
        '            f"the records have a cycle, so no order exists: node {name!r} depends on itself ({shown}, "\n'
        '            "each reading the next)"\n'
        "        )",
        'raise ValueError("the records have a cycle, so no order exists")',
    ),
]
