"""Lets relu pass the gradient at exactly 0 (tests a >= 0), although the slope at and below 0 is 0."""

FUNCTION = "backward"
FAILS = ["local_slopes"]
PATCH = [("a > 0", "a >= 0")]
