"""Returns as soon as it finds a reader, so only the first node that reads the name is reported."""

FUNCTION = "users_of"
FAILS = ["users_of_order"]
PATCH = [("if name in inputs]", "if name in inputs][:1]")]
