"""Pulls each gradient from the distinct nodes that read it, so a node that reads a value twice (mul x x) is counted once."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation"]


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
    readers = {}
    for name, op, inputs in graph:
        for i in set(inputs):
            readers.setdefault(i, []).append(name)

    order = [name for name, _op, _inputs in reversed(graph)]
    order += [name for name in values if name not in nodes]
    grads = {}
    for name in order:
        if name == output:
            grads[name] = 1.0
            continue
        total = 0.0
        for reader in readers.get(name, []):
            op, inputs = nodes[reader]
            local = slopes[op](*(values[i] for i in inputs), values[reader])
            total += grads[reader] * local[inputs.index(name)]
        grads[name] = total
    return grads
