"""Lists a name once per edge, so mul x x saves ["x", "x"]: x is one stored value, however often it is read."""

FUNCTION = "saved_for_backward"
FAILS = ["saved_once"]
PATCH = [("list(dict.fromkeys(inputs))", "list(inputs)")]
