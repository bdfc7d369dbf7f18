"""A plain forward pass for the public tests of lessons 5 and 6, independent of the code under test.

The tests use it to know what a graph computes (and so what its derivatives are by
central differences) without trusting the module they test. It knows the eight ops
of lesson 1 and lesson 6's two new ones, ``one`` and ``step``.
"""

import math

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
    """{name: value} for every leaf and node; KeyError if a node reads a name with no value yet."""
    known = {**leaves}
    for node, op, reads in graph:
        known[node] = OPS[op](*[known[read] for read in reads])
    return known


def central_difference(function, x, h=1e-6):
    """(f(x + h) - f(x - h)) / 2h."""
    return (function(x + h) - function(x - h)) / (2 * h)
