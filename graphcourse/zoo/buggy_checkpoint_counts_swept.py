"""Counts every node the sweep walks as recomputed, the checkpoints too: recomputed is then the whole chain."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_recomputed"]
PATCH = [
    (
        "\n"
        "                recomputed += 1",
        "",
    ),
    (
        "for position in range(start, end + 1):",
        "for position in range(start, end + 1):\n"
        "            recomputed += 1  # every node of the segment, its checkpoint included",
    ),
]
