"""Works out all local slopes first and then reuses the values dict to hold the gradients, overwriting the caller's values."""

FUNCTION = "backward"
FAILS = ["no_mutation"]


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
    edges = []  # (node, input, local slope), in listed order
    for name, op, inputs in graph:
        local = slopes[op](*(values[i] for i in inputs), values[name])
        for i, slope in zip(inputs, local):
            edges.append((name, i, slope))

    # the values are no longer needed, so the same dict can hold the gradients
    grads = values
    for name in grads:
        grads[name] = 0.0
    grads[output] = 1.0
    for name, i, slope in reversed(edges):
        grads[i] += grads[name] * slope
    return grads
