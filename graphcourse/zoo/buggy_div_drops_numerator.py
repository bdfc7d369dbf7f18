"""Differentiates 1/b for the div denominator and forgets the numerator, using -1 / b**2 instead of -a / b**2."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [("-a", "-1.0")]
