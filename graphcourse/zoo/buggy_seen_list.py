"""Keeps the names the output depends on in a list, so every membership test scans it and backward turns quadratic."""

FUNCTION = "backward"
FAILS = ["linear_time"]


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
    nodes = {name: (op, inputs) for name, op, inputs in graph}

    # first find everything the output depends on
    seen = [output]
    stack = [output]
    while stack:
        name = stack.pop()
        if name in nodes:
            for i in nodes[name][1]:
                if i not in seen:
                    seen.append(i)
                    stack.append(i)

    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        if name not in seen:
            continue
        local = slopes[op](*(values[i] for i in inputs), values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads
