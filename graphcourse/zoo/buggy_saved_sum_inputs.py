"""A sum or difference saves its inputs, as a product does: their slopes are 1 and -1 whatever the inputs are."""

FUNCTION = "saved_for_backward"
FAILS = ["saved_per_op"]
PATCH = [('reads_inputs = {"mul", "div", "sq", "relu"}', 'reads_inputs = {"mul", "div", "sq", "relu", "add", "sub"}')]
