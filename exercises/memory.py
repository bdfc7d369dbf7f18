# Your exercise. Replace each `raise NotImplementedError(...)` with your code;
# keep the names and signatures as they are. Run `make check` to test it.
"""What the backward sweep keeps: the memory bill, checkpoints, and a promise about the past.

Graphs are lesson 1's lists of ``(name, op, inputs)``. The backward sweep needs,
at every node, the values its local slopes read: for a product the other
factor, for tanh the node's own output, for a sum nothing. Those values must
still be stored, unchanged, when the sweep arrives.

    saved_for_backward([("y", "tanh", ["u"]), ("z", "mul", ["y", "w"])])
    # {"y": ["y"], "z": ["y", "w"]}

``OPS`` and ``SLOPES`` are given (they are lessons 1 and 2's tables), so this
module works on its own.
"""

import math

# The forward rule of every op, as in lesson 1: the inputs' values -> the node's value.
OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "sq": lambda a: a * a,
    "tanh": lambda a: math.tanh(a),
    "relu": lambda a: a if a > 0 else 0.0,
    "neg": lambda a: -a,
}

# The local slopes of every op, as in lesson 2's table: (the inputs' values u (and v), the node's own
# value y) -> d(node)/d(input), one per input.
SLOPES = {
    "add": lambda u, v, y: (1.0, 1.0),
    "sub": lambda u, v, y: (1.0, -1.0),
    "mul": lambda u, v, y: (v, u),
    "div": lambda u, v, y: (1.0 / v, -u / (v * v)),
    "sq": lambda u, y: (2.0 * u,),
    "tanh": lambda u, y: (1.0 - y * y,),
    "relu": lambda u, y: (1.0 if u > 0 else 0.0,),
    "neg": lambda u, y: (-1.0,),
}


def saved_for_backward(graph):
    """Return a dict mapping every node to the list of names whose values its local slopes read.

    Each name is listed once, in input order: ``add``, ``sub`` and ``neg`` read
    nothing (``[]``); ``mul`` and ``div`` read their inputs (``mul x x`` gives
    ``["x"]``); ``sq`` and ``relu`` read their input; ``tanh`` reads the node's
    own output (``[name]``). The distinct names in all the lists are what the
    sweep must keep: its memory bill. ``graph`` is not modified.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task saved_for_backward: not written yet")


def stale_reads(graph, overwritten):
    """Return, in graph order, the nodes whose slopes read a value that was replaced after they saved it.

    ``overwritten`` is a list of ``(position, name)``: right after ``graph[position]``
    ran, the stored value of ``name`` was replaced in place. A node at position p
    is stale when one of the names it saves (as ``saved_for_backward`` says) was
    replaced at a position >= p. A replacement before the node ran is harmless:
    the node read the new value. Each node is listed once; neither argument is
    modified.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task stale_reads: not written yet")


def backward_checkpointed(graph, leaves, every, output=None):
    """Return ``(grads, recomputed)`` for a sequential graph, holding only checkpoints between the passes.

    Sequential: each node reads only names in ``leaves`` and the node listed just
    before it; anything else raises ValueError naming the node. ``every`` is a
    whole number >= 1. L is ``output`` (default: the last node).

    The forward pass computes the nodes up to L from ``leaves``, holding only the
    previous node's value and the checkpoints, the nodes at positions
    every-1, 2*every-1, ... The sweep walks the segments between checkpoints from
    last to first, recomputes each segment's values once from the checkpoint
    before it (or from the leaves), and holds them only while it sweeps that
    segment.

    ``grads`` maps every leaf to dL/d(leaf), as lesson 2's ``backward`` gives it;
    ``recomputed`` is the number of node values the sweep recomputed: the nodes up
    to L that are not checkpoints (0 when ``every`` is 1). Neither ``graph`` nor
    ``leaves`` is modified.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task backward_checkpointed: not written yet")
