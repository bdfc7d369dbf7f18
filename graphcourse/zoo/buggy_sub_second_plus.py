"""Treats sub like add when going backward, giving the second input a slope of +1 instead of -1."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [("-1.0),", "1.0),")]
