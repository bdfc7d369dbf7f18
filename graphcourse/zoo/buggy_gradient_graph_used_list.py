"""Keeps the names already used in a list, so each new name searches the whole list: right, but quadratic in the graph's size."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_deep"]


def gradient_graph(graph, output=None):
    names = []  # every name graph reads or produces, in order of appearance: a list, searched at every step
    for name, _op, inputs in graph:
        for read in inputs:
            if read not in names:
                names.append(read)
        if name not in names:
            names.append(name)
    if output is None:
        if not graph:
            raise ValueError("the graph has no nodes, so it has no last node to differentiate")
        output = graph[-1][0]
    if output not in names:
        raise ValueError(f"output {output!r} is not a name of the graph")
    graph2 = [(name, op, list(inputs)) for name, op, inputs in graph]
    candidates = (f"d{k}" for k in itertools.count())  # d0, d1, ...: each is tried once

    def node(op, *inputs):
        """Append a new node with a fresh name and return that name."""
        fresh = next(candidates)
        while fresh in names:
            fresh = next(candidates)
        graph2.append((fresh, op, list(inputs)))
        return fresh

    one = node("one")
    grad = {output: one}  # name -> the node holding dL/d(name), once a contribution has reached it
    for name, op, inputs in reversed(graph):
        if name not in grad:
            continue  # L does not depend on this node
        g = grad[name]
        if op == "add":  # slopes 1 and 1: the gradient itself, along both edges
            terms = [g, g]
        elif op == "sub":  # 1 and -1
            terms = [g, node("neg", g)]
        elif op == "mul":  # each edge: the other factor
            terms = [node("mul", g, inputs[1]), node("mul", g, inputs[0])]
        elif op == "div":  # 1/b and -a/b**2
            top, bottom = inputs
            terms = [node("mul", g, node("div", one, bottom)),
                     node("mul", g, node("neg", node("div", top, node("mul", bottom, bottom))))]
        elif op == "sq":  # 2a, as a + a
            terms = [node("mul", g, node("add", inputs[0], inputs[0]))]
        elif op == "tanh":  # 1 - out**2, from the node's own output
            terms = [node("mul", g, node("sub", one, node("sq", name)))]
        elif op == "relu":  # step(a)
            terms = [node("mul", g, node("step", inputs[0]))]
        elif op == "neg":  # -1
            terms = [node("neg", g)]
        elif op in ("one", "step"):
            terms = []  # no inputs, or a slope of 0: nothing to send
        else:
            raise ValueError(f"node {name!r} has op {op!r}, which is not one of {sorted(OPS)}")
        for read, term in zip(inputs, terms):
            grad[read] = node("add", grad[read], term) if read in grad else term
    if len(grad) < len(names):
        zero = node("sub", one, one)
        grad = {name: grad.get(name, zero) for name in names}
    return graph2, {name: grad[name] for name in names}
