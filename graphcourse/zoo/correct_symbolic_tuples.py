"""Tuples and shortcuts: graph2 as a tuple, and grads pointing straight at a factor where the gradient is the seed."""

FUNCTION = None
FAILS = []
MODULE = "symbolic"


def gradient_graph(graph, output=None):
    if output is None:
        output = graph[-1][0]
    every = {}  # every name, in order of appearance
    for name, _op, inputs in graph:
        for read in inputs:
            every.setdefault(read)
        every.setdefault(name)
    used = set(every)
    new_nodes = []

    def add_node(op, inputs):
        k = len(new_nodes)
        fresh = f"_sym{k}"
        while fresh in used:
            k += 1
            fresh = f"_sym{k}"
        used.add(fresh)
        new_nodes.append((fresh, op, tuple(inputs)))
        return fresh

    seed = add_node("one", ())

    def times(g, slope):  # g * slope, with no node when g is the seed
        return slope if g == seed else add_node("mul", (g, slope))

    gradient = {output: seed}
    for name, op, inputs in graph[::-1]:
        g = gradient.get(name)
        if g is None:
            continue
        if op == "add":
            sent = (g, g)
        elif op == "sub":
            sent = (g, add_node("neg", (g,)))
        elif op == "mul":
            sent = (times(g, inputs[1]), times(g, inputs[0]))
        elif op == "div":
            a, b = inputs
            quotient = add_node("div", (g, b))  # g/b
            sent = (quotient, add_node("neg", (add_node("mul", (quotient, add_node("div", (a, b)))),)))
        elif op == "sq":
            sent = (times(g, add_node("add", (inputs[0], inputs[0]))),)
        elif op == "tanh":
            sent = (times(g, add_node("sub", (seed, add_node("sq", (name,))))),)
        elif op == "relu":
            sent = (times(g, add_node("step", (inputs[0],))),)
        elif op == "neg":
            sent = (add_node("neg", (g,)),)
        else:
            sent = ()
        for read, term in zip(inputs, sent):
            gradient[read] = add_node("add", (gradient[read], term)) if read in gradient else term
    missing = [name for name in every if name not in gradient]
    if missing:
        zero = add_node("sub", (seed, seed))
        for name in missing:
            gradient[name] = zero
    copied = tuple((name, op, list(inputs)) for name, op, inputs in graph)
    return copied + tuple(new_nodes), {name: gradient[name] for name in every}
