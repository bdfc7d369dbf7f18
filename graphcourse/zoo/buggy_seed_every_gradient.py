"""Starts every gradient at 1.0, as if each name were the output, instead of 1.0 for the output and 0.0 for the rest."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]
ALSO = {
    "fan_out_accumulation": "Each gradient below the output starts at 1.0 instead of 0.0, so every gradient the family judges is its own seed plus what its readers pass on: no graph with a name below the output escapes it.",
    "reverse_order": "Each gradient below the output starts at 1.0 instead of 0.0, so every gradient the family judges is its own seed plus what its readers pass on: no graph with a name below the output escapes it.",
    "local_slopes": "Each gradient below the output starts at 1.0 instead of 0.0, so every gradient the family judges is its own seed plus what its readers pass on: no graph with a name below the output escapes it.",
}


def backward(graph, values, output=None):
    slopes = {
        "add": lambda a, b, out: (1.0, 1.0),
        "sub": lambda a, b, out: (1.0, -1.0),
        "mul": lambda a, b, out: (b, a),
        "div": lambda a, b, out: (1.0 / b, -a / (b * b)),
        "sq": lambda a, out: (2.0 * a,),
        "tanh": lambda a, out: (1.0 - out * out,),
        "relu": lambda a, out: (1.0 if a > 0 else 0.0,),
        "neg": lambda a, out: (-1.0,),
    }
    if output is None:
        output = graph[-1][0]
    grads = {name: 1.0 for name in values}
    for name, op, inputs in reversed(graph):
        local = slopes[op](*(values[i] for i in inputs), values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads
