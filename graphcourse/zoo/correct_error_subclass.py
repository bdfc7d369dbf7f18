"""A ValueError subclass, MissingValueError, reports which node read which missing name."""

FUNCTION = None
FAILS = []


class MissingValueError(ValueError):
    """A node read a name that has no value yet."""

    def __init__(self, node, missing):
        super().__init__(f"node {node!r} reads {missing!r}, which has no value yet")
        self.node = node
        self.missing = missing


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise MissingValueError(name, i)
        values[name] = OPS[op](*(values[i] for i in inputs))
    return values


def inputs_of(graph, name):
    for node, _op, inputs in graph:
        if node == name:
            return inputs[:]
    return []


def users_of(graph, name):
    return [node for node, _op, inputs in graph if inputs.count(name) > 0]


def backward(graph, values, output=None):
    rules = {
        "add": lambda a, b, out: (1.0, 1.0),
        "sub": lambda a, b, out: (1.0, -1.0),
        "mul": lambda a, b, out: (b, a),
        "div": lambda a, b, out: (1.0 / b, -a / b**2),
        "sq": lambda a, out: (2.0 * a,),
        "tanh": lambda a, out: (1.0 - out**2,),
        "relu": lambda a, out: (0.0 if a <= 0 else 1.0,),
        "neg": lambda a, out: (-1.0,),
    }
    if output is None:
        output = graph[-1][0]
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for k in range(len(graph) - 1, -1, -1):
        name, op, inputs = graph[k]
        local = rules[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] += slope * grads[name]
    return grads
