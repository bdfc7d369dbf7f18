"""Passes the gradient through neg unchanged, with slope +1 instead of -1."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]
PATCH = [
    (
        '"neg": lambda a, out: (-1.0,),\n'
        '        "one": lambda out: (),\n'
        '        "step": lambda a, out: (0.0,),',
        '"neg": lambda a, out: (1.0,),',
    ),
]
