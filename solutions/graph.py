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
    ### BEGIN SOLUTION
    values = dict(leaves)
    for name, op, inputs in graph:
        for i in inputs:
            if i not in values:
                raise ValueError(f"node {name!r} reads {i!r}, which has no value yet")
        values[name] = OPS[op](*(values[i] for i in inputs))
    return values
    ### END SOLUTION


def inputs_of(graph, name):
    """Return the immediate inputs of node ``name`` as a new list.

    Inputs come in the order listed, duplicates kept (``mul x x`` has two
    edges from x). A leaf, or a name not in the graph, gives [].
    """
    ### BEGIN SOLUTION
    for node, _op, inputs in graph:
        if node == name:
            return list(inputs)
    return []
    ### END SOLUTION


def users_of(graph, name):
    """Return the names of the nodes that read ``name``, in graph order.

    A node that reads ``name`` twice is listed once. [] if nothing reads it.
    """
    ### BEGIN SOLUTION
    return [node for node, _op, inputs in graph if name in inputs]
    ### END SOLUTION


def backward(graph, values, output=None):
    """Return a new dict mapping every name in ``values`` to dL/d(name).

    L is ``output`` (default: the last node of the graph). Names that L does
    not depend on get 0.0; L's own entry is 1.0. One sweep in reverse of the
    listed order adds one contribution per edge, so a value read by several
    nodes, or twice by one node, receives the sum of its contributions.
    ``values`` is the dict that ``evaluate`` returns; it is not modified.
    """
    ### BEGIN SOLUTION
    # Local slope of each op: (input values, node's own value) -> d(node)/d(input), per input.
    slopes = {
        "add": lambda a, b, out: (1.0, 1.0),
        "sub": lambda a, b, out: (1.0, -1.0),
        "mul": lambda a, b, out: (b, a),
        "div": lambda a, b, out: (1.0 / b, -a / (b * b)),
        "sq": lambda a, out: (2.0 * a,),
        "tanh": lambda a, out: (1.0 - out * out,),
        "relu": lambda a, out: (1.0 if a > 0 else 0.0,),
        "neg": lambda a, out: (-1.0,),
        "one": lambda out: (),
        "step": lambda a, out: (0.0,),
    }
    if output is None:
        output = graph[-1][0]
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = slopes[op](*(values[i] for i in inputs), values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope  # add, never assign: fan-out sums
    return grads
    ### END SOLUTION
