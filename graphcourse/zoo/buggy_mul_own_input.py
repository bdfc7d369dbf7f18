"""Gives each factor of mul its own value as slope instead of the other factor's value."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [("(b, a),", "(a, b),")]
