"""Returns the graph's own inputs list instead of a copy, so changing the answer changes the graph."""

FUNCTION = "inputs_of"
FAILS = ["inputs_of_edges"]
PATCH = [("return list(inputs)", "return inputs")]
