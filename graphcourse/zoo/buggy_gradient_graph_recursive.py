"""Builds each name's gradient node by a recursive call on the nodes that read it: right, but a chain of 10,000 overflows the call stack."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_deep"]


def gradient_graph(graph, output=None):
    names = {}
    for name, _op, inputs in graph:
        names.update(dict.fromkeys(inputs))
        names[name] = None
    output = graph[-1][0] if output is None else output
    graph2 = [(name, op, list(inputs)) for name, op, inputs in graph]
    counter = itertools.count()
    readers = {}
    for name, op, inputs in graph:
        for k, read in enumerate(inputs):
            readers.setdefault(read, []).append((name, op, inputs, k))

    def node(op, *inputs):
        fresh = f"d{next(counter)}"
        while fresh in names:
            fresh = f"d{next(counter)}"
        graph2.append((fresh, op, list(inputs)))
        return fresh

    one = node("one")
    memo = {}

    def contribution(name, op, inputs, k):
        g = gradient_of(name)
        if g is None:
            return None
        a = inputs[0]
        if op == "add":
            return g
        if op == "sub":
            return g if k == 0 else node("neg", g)
        if op == "mul":
            return node("mul", g, inputs[1 - k])
        if op == "div":
            b = inputs[1]
            return node("mul", g, node("div", one, b)) if k == 0 else node(
                "mul", g, node("neg", node("div", a, node("mul", b, b))))
        if op == "sq":
            return node("mul", g, node("add", a, a))
        if op == "tanh":
            return node("mul", g, node("sub", one, node("sq", name)))
        if op == "relu":
            return node("mul", g, node("step", a))
        if op == "neg":
            return node("neg", g)
        return None  # one, step: nothing

    def gradient_of(name):
        if name in memo:
            return memo[name]
        total = one if name == output else None
        for reader in readers.get(name, ()):
            term = contribution(*reader)
            if term is not None:
                total = term if total is None else node("add", total, term)
        memo[name] = total
        return total

    grads = {name: gradient_of(name) for name in names}
    if any(g is None for g in grads.values()):
        zero = node("sub", one, one)
        grads = {name: zero if g is None else g for name, g in grads.items()}
    return graph2, grads
