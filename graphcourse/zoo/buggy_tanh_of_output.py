"""Applies the tanh slope formula to the node's own value a second time, using 1 - tanh(out)**2 instead of 1 - out**2."""

FUNCTION = "backward"
FAILS = ["local_slopes", "finite_difference_agreement"]


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        g = grads[name]
        out = values[name]
        if op == "add":
            grads[inputs[0]] += g
            grads[inputs[1]] += g
        elif op == "sub":
            grads[inputs[0]] += g
            grads[inputs[1]] -= g
        elif op == "mul":
            a, b = values[inputs[0]], values[inputs[1]]
            grads[inputs[0]] += g * b
            grads[inputs[1]] += g * a
        elif op == "div":
            a, b = values[inputs[0]], values[inputs[1]]
            grads[inputs[0]] += g / b
            grads[inputs[1]] -= g * a / (b * b)
        elif op == "sq":
            grads[inputs[0]] += g * 2.0 * values[inputs[0]]
        elif op == "tanh":
            grads[inputs[0]] += g * (1.0 - math.tanh(out) ** 2)
        elif op == "relu":
            if values[inputs[0]] > 0:
                grads[inputs[0]] += g
        elif op == "neg":
            grads[inputs[0]] -= g
    return grads
