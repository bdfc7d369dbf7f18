# Your exercise. Replace each `raise NotImplementedError(...)` with your code;
# keep the names and signatures as they are. Run `make check` to test it.
"""Computation graphs and reverse-mode differentiation, in one page.

A graph is a list of ``(name, op, inputs)`` tuples listed in an order in
which it can be computed: every node comes after the nodes it reads.
``inputs`` is a list of names. Leaves are not in the list; their values come
in a dict ``leaves`` of name -> number.

    graph = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
    evaluate(graph, {"a": 2, "b": 3, "c": 1})["z"]   # 7
"""

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


def evaluate(graph, leaves):
    """Return a new dict with the value of every leaf and every node.

    Raises ValueError naming the node and the missing name when a node reads
    a name that has no value yet (the graph is listed in the wrong order, or
    a leaf is missing). Neither argument is modified.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task evaluate: not written yet")


def inputs_of(graph, name):
    """Return the immediate inputs of node ``name`` as a new list.

    Inputs come in the order listed, duplicates kept (``mul x x`` has two
    edges from x). A leaf, or a name not in the graph, gives [].
    """
    # YOUR CODE HERE
    raise NotImplementedError("task inputs_of: not written yet")


def users_of(graph, name):
    """Return the names of the nodes that read ``name``, in graph order.

    A node that reads ``name`` twice is listed once. [] if nothing reads it.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task users_of: not written yet")


def backward(graph, values, output=None):
    """Return a new dict mapping every name in ``values`` to dL/d(name).

    L is ``output`` (default: the last node of the graph). Names that L does
    not depend on get 0.0; L's own entry is 1.0. One sweep in reverse of the
    listed order adds one contribution per edge, so a value read by several
    nodes, or twice by one node, receives the sum of its contributions.
    ``values`` is the dict that ``evaluate`` returns; it is not modified.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task backward: not written yet")
