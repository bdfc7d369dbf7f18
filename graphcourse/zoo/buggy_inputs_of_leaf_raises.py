"""Looks the name up in a dict of nodes, so a leaf or an unknown name raises KeyError instead of giving []."""

FUNCTION = "inputs_of"
FAILS = ["inputs_of_edges"]
PATCH = [("    return []", "    raise KeyError(name)")]
