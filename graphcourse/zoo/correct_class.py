"""A small Graph class indexes nodes and readers once per call; the four functions are thin wrappers around it."""

FUNCTION = None
FAILS = []


class _Graph:
    SLOPES = {
        "add": lambda a, b, out: (1.0, 1.0),
        "sub": lambda a, b, out: (1.0, -1.0),
        "mul": lambda a, b, out: (b, a),
        "div": lambda a, b, out: (1.0 / b, -a / (b * b)),
        "sq": lambda a, out: (2.0 * a,),
        "tanh": lambda a, out: (1.0 - out * out,),
        "relu": lambda a, out: (1.0 if a > 0 else 0.0,),
        "neg": lambda a, out: (-1.0,),
    }

    def __init__(self, graph):
        self.order = [name for name, _op, _inputs in graph]
        self.op = {name: op for name, op, _inputs in graph}
        self.inputs = {name: tuple(inputs) for name, _op, inputs in graph}

    def readers(self, name):
        found = []
        for node in self.order:
            if name in self.inputs[node]:
                found.append(node)
        return found

    def forward(self, leaves):
        values = dict(leaves)
        for node in self.order:
            args = []
            for i in self.inputs[node]:
                if i not in values:
                    raise ValueError(f"node {node!r} reads {i!r}, which has no value yet")
                args.append(values[i])
            values[node] = OPS[self.op[node]](*args)
        return values

    def gradients(self, values, output):
        grads = {name: 0.0 for name in values}
        grads[output] = 1.0
        for node in reversed(self.order):
            ins = self.inputs[node]
            local = self.SLOPES[self.op[node]](*(values[i] for i in ins), values[node])
            for i, slope in zip(ins, local):
                grads[i] += grads[node] * slope
        return grads


def evaluate(graph, leaves):
    return _Graph(graph).forward(leaves)


def inputs_of(graph, name):
    return list(_Graph(graph).inputs.get(name, ()))


def users_of(graph, name):
    return _Graph(graph).readers(name)


def backward(graph, values, output=None):
    g = _Graph(graph)
    if output is None:
        output = g.order[-1]
    return g.gradients(values, output)
