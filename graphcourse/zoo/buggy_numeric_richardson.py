"""Does no reverse sweep: re-runs the graph with each name nudged and refines central differences by Richardson extrapolation, a better step that is still an estimate."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation", "backward_every_name", "reverse_order", "local_slopes", "linear_time"]
ALSO = {
    "deep_graph": "Re-running the graph below each name costs millions of op evaluations on a chain of 3,000 nodes: it does not answer within deep_graph's time limit, so there is no answer to judge.",
}

BASE = "buggy_numeric_central"
PATCH = [
    (
        "    grads = {}\n",
        """    def central(name, value, h):
        return (output_at(name, value + h) - output_at(name, value - h)) / (2 * h)

    grads = {}
""",
    ),
    ("grads[name] = 0.0  # listed after the output: nudging it changes nothing", "grads[name] = 0.0"),
    (
        "        grads[name] = (output_at(name, value + STEP) - output_at(name, value - STEP)) / (2 * STEP)",
        """        coarse, fine = central(name, value, STEP), central(name, value, STEP / 2)
        grads[name] = (4 * fine - coarse) / 3  # the step's h**2 error term cancels""",
    ),
]

STEP = 1e-3
