"""Never checks that the graph is sequential: a node reading further back fails with a KeyError, or is swept wrong."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_sequential"]
PATCH = [
    (
        "        for read in inputs:\n"
        "            if read != before and read not in leaves:\n"
        "                raise ValueError(\n"
        '                    f"node {name!r} reads {read!r}, which is neither a leaf nor the node just before it "\n'
        '                    f"({before!r}): backward_checkpointed takes a sequential graph"\n'
        "                )\n",
        "",
    ),
]
