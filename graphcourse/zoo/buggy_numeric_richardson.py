"""Does no reverse sweep: re-runs the graph with each name nudged and refines central differences by Richardson extrapolation, a better step that is still an estimate."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation", "backward_every_name", "reverse_order", "local_slopes", "linear_time"]
ALSO = {
    "deep_graph": "Re-running the graph below each name costs millions of op evaluations on a chain of 3,000 nodes: it does not answer within deep_graph's time limit, so there is no answer to judge.",
}

STEP = 1e-3


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    position = {name: k for k, (name, _op, _inputs) in enumerate(graph)}
    last = position[output]

    def output_at(name, value):
        changed = dict(values)
        changed[name] = value
        for node, op, inputs in graph[position.get(name, -1) + 1: last + 1]:
            changed[node] = OPS[op](*(changed[i] for i in inputs))
        return changed[output]

    def central(name, value, h):
        return (output_at(name, value + h) - output_at(name, value - h)) / (2 * h)

    grads = {}
    for name, value in values.items():
        if name in position and position[name] > last:
            grads[name] = 0.0
            continue
        coarse, fine = central(name, value, STEP), central(name, value, STEP / 2)
        grads[name] = (4 * fine - coarse) / 3  # the step's h**2 error term cancels
    return grads
