"""Edge list first: every (reader, input, slope) edge is recorded going forward, then the edges are swept in reverse."""

FUNCTION = None
FAILS = []


_EDGE_SLOPES = {  # (input values, node value) -> slope of each edge into the node
    "add": lambda args, out: (1.0, 1.0),
    "sub": lambda args, out: (1.0, -1.0),
    "mul": lambda args, out: (args[1], args[0]),
    "div": lambda args, out: (1.0 / args[1], -args[0] / (args[1] * args[1])),
    "sq": lambda args, out: (2.0 * args[0],),
    "tanh": lambda args, out: (1.0 - out * out,),
    "relu": lambda args, out: (1.0 if args[0] > 0 else 0.0,),
    "neg": lambda args, out: (-1.0,),
}


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"node {name!r}: input {i!r} is not available")
        values[name] = OPS[op](*(values[i] for i in inputs))
    return values


def inputs_of(graph, name):
    matches = [inputs for node, _op, inputs in graph if node == name]
    return list(matches[0]) if matches else []


def users_of(graph, name):
    edges = [(node, i) for node, _op, inputs in graph for i in inputs]
    readers = []
    for node, i in edges:
        if i == name and (not readers or readers[-1] != node):
            readers.append(node)
    return readers


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    edges = []
    for name, op, inputs in graph:
        args = [values[i] for i in inputs]
        for i, slope in zip(inputs, _EDGE_SLOPES[op](args, values[name])):
            edges.append((name, i, slope))
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for reader, i, slope in reversed(edges):
        grads[i] += grads[reader] * slope
    return grads
