"""Computes each gradient by a recursive call on the nodes that read it, which is correct but overflows the call stack on a deep chain."""

FUNCTION = "backward"
FAILS = ["deep_graph"]


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
    memo = {}

    def grad(name):
        if name == output:
            return 1.0
        if name in memo:
            return memo[name]
        total = 0.0
        for reader in readers.get(name, []):
            op, inputs = nodes[reader]
            local = slopes[op](*(values[i] for i in inputs), values[reader])
            for i, slope in zip(inputs, local):
                if i == name:
                    total += grad(reader) * slope
        memo[name] = total
        return total

    return {name: grad(name) for name in values}
