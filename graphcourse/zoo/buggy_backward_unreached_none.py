"""Marks names that have not received a gradient with None and leaves it there, instead of 0.0, for names the output does not depend on."""

FUNCTION = "backward"
FAILS = ["backward_every_name"]


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
    grads = {name: None for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        if grads[name] is None:
            continue  # no gradient has arrived here
        local = slopes[op](*(values[i] for i in inputs), values[name])
        for i, slope in zip(inputs, local):
            if grads[i] is None:
                grads[i] = grads[name] * slope
            else:
                grads[i] += grads[name] * slope
    return grads
