"""Adds the contributions within one node but stores them with grads.update, so each reader overwrites what earlier readers passed back."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation"]
PATCH = [
    (
        "local = slopes[op](*(values[i] for i in inputs), values[name])\n"
        "        for i, slope in zip(inputs, local):\n"
        "            grads[i] += grads[name] * slope  # add, never assign: fan-out sums",
        "local = {}\n"
        "        for i, slope in zip(inputs, slopes[op](*(values[i] for i in inputs), values[name])):\n"
        "            local[i] = local.get(i, 0.0) + grads[name] * slope  # mul(x, x): both reads add up here\n"
        "        grads.update(local)  # but a name read by two nodes keeps only the last one's contribution",
    ),
]
