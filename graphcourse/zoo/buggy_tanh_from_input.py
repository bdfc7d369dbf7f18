"""Takes the tanh slope as 1 - a**2 from the node's input instead of 1 - out**2 from its own value."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [("1.0 - out * out", "1.0 - a * a")]
