"""Pull style: each name collects its gradient from a table of reader edges built once, in reverse listed order."""

FUNCTION = None
FAILS = []


def _slope(op, args, out, position):
    if op == "add":
        return 1.0
    if op == "sub":
        return 1.0 if position == 0 else -1.0
    if op == "mul":
        return args[1 - position]
    if op == "div":
        a, b = args
        return 1.0 / b if position == 0 else -a / (b * b)
    if op == "sq":
        return 2.0 * args[0]
    if op == "tanh":
        return 1.0 - out * out
    if op == "relu":
        return 1.0 if args[0] > 0 else 0.0
    return -1.0  # neg


def evaluate(graph, leaves):
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"{name!r} reads {i!r}, which is not computed yet")
        values[name] = OPS[op](*(values[i] for i in inputs))
    return values


def inputs_of(graph, name):
    for node, _op, inputs in graph:
        if node == name:
            return [i for i in inputs]
    return []


def users_of(graph, name):
    seen = set()
    readers = []
    for node, _op, inputs in graph:
        if name in inputs and node not in seen:
            seen.add(node)
            readers.append(node)
    return readers


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    reader_edges = {}  # name -> [(reader, slope)], one entry per edge
    for node, op, inputs in graph:
        args = [values[i] for i in inputs]
        for position, i in enumerate(inputs):
            slope = _slope(op, args, values[node], position)
            reader_edges.setdefault(i, []).append((node, slope))
    grads = {}
    for name in [node for node, _op, _inputs in reversed(graph)] + list(values):
        if name in grads:
            continue
        if name == output:
            grads[name] = 1.0
        else:
            grads[name] = sum((grads[r] * s for r, s in reader_edges.get(name, [])), 0.0)
    return {name: grads.get(name, 0.0) for name in values} | {output: 1.0}
