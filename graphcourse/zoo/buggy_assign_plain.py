"""Writes grads[i] = grads[name] * slope, assigning each contribution instead of adding it, so at a fan-out only the last one survives."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation"]
PATCH = [("+= grads[name] * slope  # add, never assign: fan-out sums", "= grads[name] * slope")]
