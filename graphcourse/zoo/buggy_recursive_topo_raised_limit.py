"""Orders the nodes with a recursive depth-first search (as micrograd's build_topo does), with Python's recursion limit raised to get past the RecursionError."""

FUNCTION = "backward"
FAILS = ["deep_graph"]


def backward(graph, values, output=None):
    import sys

    if sys.getrecursionlimit() < 2 * len(graph) + 100:  # the usual answer to a RecursionError: the search stays recursive
        sys.setrecursionlimit(2 * len(graph) + 100)
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
    reads = {name: (op, inputs) for name, op, inputs in graph}
    order, seen = [], set()

    def visit(name):  # one Python call per node on the path: 200,000 deep on a long chain
        if name not in seen:
            seen.add(name)
            for i in reads.get(name, ("", []))[1]:
                visit(i)
            order.append(name)

    visit(output)
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for name in reversed(order):
        if name in reads:
            op, inputs = reads[name]
            local = slopes[op](*(values[i] for i in inputs), values[name])
            for i, slope in zip(inputs, local):
                grads[i] += grads[name] * slope
    return grads
