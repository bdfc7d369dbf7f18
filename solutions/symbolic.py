"""The derivative as a graph: symbol-to-symbol differentiation, which can be differentiated again.

Lesson 2's ``backward`` returns numbers. ``gradient_graph`` returns nodes instead:
it appends to the graph the nodes that *compute* every derivative, so the
derivative is itself a graph, built once without any values, evaluated for any
leaves, and differentiated again for second derivatives.

    graph = [("a", "mul", ["x", "x"]), ("t", "add", ["a", "a"]), ("L", "mul", ["t", "t"])]
    graph2, grads = gradient_graph(graph)          # L = 4x**4
    forward(graph2, {"x": 2})[grads["x"]]          # 128.0 = 16x**3
    graph3, grads3 = gradient_graph(graph2, output=grads["x"])
    forward(graph3, {"x": 2})[grads3["x"]]         # 192.0 = 48x**2

``OPS`` is lesson 1's table with two more ops, ``one`` (no inputs) and ``step``
(relu's slope), so that slopes can be written as nodes. ``forward`` is lesson 1's
forward pass, given here so that this module works on its own.
"""

import itertools
import math

# The forward rule of every op: the inputs' values -> the node's value.
OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "sq": lambda a: a * a,
    "tanh": lambda a: math.tanh(a),
    "relu": lambda a: a if a > 0 else 0.0,
    "neg": lambda a: -a,
    "one": lambda: 1.0,
    "step": lambda a: 1.0 if a > 0 else 0.0,
}


def forward(graph, leaves):
    """Lesson 1's forward pass, given: a new dict with the value of every leaf and every node of ``graph``.

    A node that reads a name with no value yet raises KeyError.
    """
    known = {**leaves}
    for node, op, reads in graph:
        known[node] = OPS[op](*[known[read] for read in reads])
    return known


def gradient_graph(graph, output=None):
    """Return ``(graph2, grads)``: ``graph`` followed by new nodes that compute dL/d(name) for every name.

    L is ``output`` (default: the last node). ``graph2`` starts with the nodes of
    ``graph``; the new nodes after them have fresh names, found nowhere in
    ``graph`` (not even as leaves), use only the ops of ``OPS``, and read only
    names defined before them. ``grads`` maps every name that ``graph`` reads or
    produces to the name in ``graph2`` whose value is dL/d(that name): a node of
    value 1.0 for L itself, a node of value 0.0 for the names L does not depend
    on. No values are needed, so one ``graph2`` serves every choice of leaves.

    At most 8 new nodes per edge of ``graph``, plus 3; linear time, no
    recursion; ``graph`` is not modified.
    """
    ### BEGIN SOLUTION
    names = {}  # every name graph reads or produces, in order of appearance
    for name, _op, inputs in graph:
        names.update(dict.fromkeys(inputs))
        names[name] = None
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
            terms = [
                node("mul", g, node("div", one, bottom)),
                node("mul", g, node("neg", node("div", top, node("mul", bottom, bottom)))),
            ]
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
    ### END SOLUTION
