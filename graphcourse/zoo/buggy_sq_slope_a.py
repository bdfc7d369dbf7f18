"""Gives sq the slope a instead of 2a, forgetting the factor 2 from the power rule."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [("(2.0 * a,),", "(a,),")]
