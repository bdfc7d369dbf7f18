"""Recurses from each name to its readers, and hides the RecursionError on deep graphs by answering there only the output's first input, worked out cheaply, and 0.0 elsewhere."""

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
    depth = {}
    for name, op, inputs in graph:
        depth[name] = 1 + max((depth.get(i, 0) for i in inputs), default=0)
    if max(depth.values()) > 900:  # too deep to recurse: answer the one entry a quick look can give
        grads = {name: 0.0 for name in values}
        grads[output] = 1.0
        op, inputs = nodes[output]
        local = slopes[op](*(values[i] for i in inputs), values[output])
        grads[inputs[0]] = local[0]
        return grads
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
