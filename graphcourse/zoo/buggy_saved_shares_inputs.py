"""Hands back the graph's own inputs list for a product of two names: appending to the answer changes the graph."""

FUNCTION = "saved_for_backward"
FAILS = ["memory_no_mutation"]
PATCH = [("= list(dict.fromkeys(inputs))", "= inputs if len(set(inputs)) == len(inputs) else list(dict.fromkeys(inputs))")]
