"""Skips an input it has already listed, so mul x x reports one edge from x instead of two."""

FUNCTION = "inputs_of"
FAILS = ["inputs_of_edges"]
PATCH = [("return list(inputs)", "return list(dict.fromkeys(inputs))")]
