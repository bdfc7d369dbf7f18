"""Adds only the local slope to each input and forgets to multiply by the gradient arriving at the node (no chain rule)."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation", "finite_difference_agreement"]
ALSO = {
    'backward_every_name': (
        'Without the gradient arriving at a node, a node the output does not depend on still passes contributions on, so names that should get 0.0 do not.'
    ),
}
PATCH = [("grads[name] * slope  # add, never assign: fan-out sums", "slope")]
