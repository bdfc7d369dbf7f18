"""Does no reverse sweep: nudges each name by plus and minus h and re-runs the graph below the output, taking central differences as the gradients."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation", "backward_every_name", "reverse_order", "local_slopes", "linear_time"]
ALSO = {
    "deep_graph": "Re-running the graph below each name costs millions of op evaluations on a chain of 3,000 nodes: it does not answer within deep_graph's time limit, so there is no answer to judge.",
}

STEP = 1e-6


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

    grads = {}
    for name, value in values.items():
        if name in position and position[name] > last:
            grads[name] = 0.0  # listed after the output: nudging it changes nothing
            continue
        grads[name] = (output_at(name, value + STEP) - output_at(name, value - STEP)) / (2 * STEP)
    return grads
