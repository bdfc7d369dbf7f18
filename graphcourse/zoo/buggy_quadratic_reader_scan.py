"""Finds the readers of every name by scanning the whole graph with users_of, which gives the right numbers in quadratic time."""

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
    order = [name for name, _op, _inputs in reversed(graph)]
    order += [name for name in values if name not in nodes]
    grads = {}
    for name in order:
        if name == output:
            grads[name] = 1.0
            continue
        total = 0.0
        for reader in users_of(graph, name):
            op, inputs = nodes[reader]
            local = slopes[op](*(values[i] for i in inputs), values[reader])
            for i, slope in zip(inputs, local):
                if i == name:
                    total += grads[reader] * slope
        grads[name] = total
    return grads
