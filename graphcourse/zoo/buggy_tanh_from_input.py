"""Takes the tanh slope as 1 - a**2 from the node's input instead of 1 - out**2 from its own value."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]


def backward(graph, values, output=None):
    slopes = {
        "add": lambda a, b: (1.0, 1.0),
        "sub": lambda a, b: (1.0, -1.0),
        "mul": lambda a, b: (b, a),
        "div": lambda a, b: (1.0 / b, -a / (b * b)),
        "sq": lambda a: (2.0 * a,),
        "tanh": lambda a: (1.0 - a * a,),
        "relu": lambda a: (1.0 if a > 0 else 0.0,),
        "neg": lambda a: (-1.0,),
    }
    if output is None:
        output = graph[-1][0]
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = slopes[op](*[values[i] for i in inputs])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads
