"""Pull style: each name's contributions are collected in a list, summed in one chain of add nodes when the sweep reaches it."""

FUNCTION = None
FAILS = []
MODULE = "symbolic"


def gradient_graph(graph, output=None):
    seen = []
    for name, _op, inputs in graph:
        seen.extend(inputs)
        seen.append(name)
    names = list(dict.fromkeys(seen))
    taken = set(names)
    output = graph[-1][0] if output is None else output
    graph2 = [(name, op, list(inputs)) for name, op, inputs in graph]
    count = [0]

    def new(op, *inputs):
        while f"g_{count[0]}" in taken:
            count[0] += 1
        fresh = f"g_{count[0]}"
        taken.add(fresh)
        graph2.append((fresh, op, list(inputs)))
        return fresh

    one = new("one")
    incoming = {output: [one]}  # name -> the contributions it has received

    def total(name):
        terms = incoming.get(name)
        if not terms:
            return None
        result = terms[0]
        for term in terms[1:]:
            result = new("add", result, term)
        incoming[name] = [result]
        return result

    for name, op, inputs in reversed(graph):
        g = total(name)
        if g is None:
            continue
        if op == "add":
            slopes = [None, None]
        elif op == "sub":
            slopes = [None, "minus"]
        elif op == "mul":
            slopes = [inputs[1], inputs[0]]
        elif op == "div":
            recip = new("div", one, inputs[1])
            slopes = [recip, new("neg", new("mul", recip, new("div", inputs[0], inputs[1])))]
        elif op == "sq":
            slopes = [new("add", inputs[0], inputs[0])]
        elif op == "tanh":
            slopes = [new("sub", one, new("mul", name, name))]
        elif op == "relu":
            slopes = [new("step", inputs[0])]
        elif op == "neg":
            slopes = ["minus"]
        else:
            slopes = []
        for read, slope in zip(inputs, slopes):
            term = g if slope is None else new("neg", g) if slope == "minus" else new("mul", g, slope)
            incoming.setdefault(read, []).append(term)
    grads, zero = {}, None
    for name in names:
        g = total(name)
        if g is None:
            zero = zero or new("sub", one, one)
            g = zero
        grads[name] = g
    return graph2, grads
