"""tanh saves its input, as if its slope were computed from u: its slope 1 - out**2 reads the node's own output."""

FUNCTION = "saved_for_backward"
FAILS = ["saved_per_op"]
PATCH = [("saved[name] = [name]", "saved[name] = list(dict.fromkeys(inputs))")]
