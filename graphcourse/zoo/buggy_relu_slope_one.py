"""Gives relu a slope of 1 everywhere, as if it passed every gradient on, although its slope at and below 0 is 0."""

FUNCTION = "backward"
FAILS = ["local_slopes"]
PATCH = [("(1.0 if a > 0 else 0.0,),", "(1.0,),")]
