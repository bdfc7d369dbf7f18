"""Forgets the final return after the loop, so a leaf or an unknown name gives None instead of []."""

FUNCTION = "inputs_of"
FAILS = ["inputs_of_edges"]
PATCH = [("            return list(inputs)\n    return []", "            return list(inputs)")]
