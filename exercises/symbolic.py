# Your exercise. Replace each `raise NotImplementedError(...)` with your code;
# keep the names and signatures as they are. Run `make check` to test it.
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
    # YOUR CODE HERE
    raise NotImplementedError("task gradient_graph: not written yet")
