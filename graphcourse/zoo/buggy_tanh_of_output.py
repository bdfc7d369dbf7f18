"""Applies the tanh slope formula to the node's own value a second time, using 1 - tanh(out)**2 instead of 1 - out**2."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [("(1.0 - out * out,)", "(1.0 - math.tanh(out) ** 2,)")]
