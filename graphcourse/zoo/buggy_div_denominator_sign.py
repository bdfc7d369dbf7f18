"""Drops the minus sign of the div slope for the denominator, using a / b**2 instead of -a / b**2."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [("-a", "a")]
