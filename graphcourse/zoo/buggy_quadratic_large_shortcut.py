"""Scans the whole graph for every name's readers (quadratic), and on large graphs answers instead only the output's first input, worked out cheaply, and 0.0 elsewhere."""

FUNCTION = "backward"
FAILS = ["linear_time"]
BASE = "buggy_quadratic_reader_scan"
PATCH = [
    (
        "    nodes = {name: (op, inputs) for name, op, inputs in graph}\n",
        """    nodes = {name: (op, inputs) for name, op, inputs in graph}
    if len(graph) > 5000:  # too slow to scan: answer the one entry a quick look can give
        grads = {name: 0.0 for name in values}
        grads[output] = 1.0
        op, inputs = nodes[output]
        local = slopes[op](*(values[i] for i in inputs), values[output])
        grads[inputs[0]] = local[0]
        return grads
""",
    ),
]
