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
    ### BEGIN SOLUTION
    reads_inputs = {"mul", "div", "sq", "relu"}
    saved = {}  # node -> the names its slopes read
    for name, op, inputs in graph:
        if op == "tanh":  # its slope 1 - out**2 reads the node's own output
            saved[name] = [name]
        elif op in reads_inputs:
            saved[name] = list(dict.fromkeys(inputs))
        elif op in ("add", "sub", "neg"):
            saved[name] = []
        else:
            raise ValueError(f"node {name!r} has op {op!r}, which is not one of {sorted(OPS)}")
    return saved
    ### END SOLUTION


def stale_reads(graph, overwritten):
    """Return, in graph order, the nodes whose slopes read a value that was replaced after they saved it.

    ``overwritten`` is a list of ``(position, name)``: right after ``graph[position]``
    ran, the stored value of ``name`` was replaced in place. A node at position p
    is stale when one of the names it saves (as ``saved_for_backward`` says) was
    replaced at a position >= p. A replacement before the node ran is harmless:
    the node read the new value. Each node is listed once; neither argument is
    modified.
    """
    ### BEGIN SOLUTION
    latest = {}  # name -> the last position after which its stored value was replaced
    for position, name in overwritten:
        if name not in latest or position > latest[name]:
            latest[name] = position
    saved = saved_for_backward(graph)
    stale = []  # in graph order
    for position, (name, _op, _inputs) in enumerate(graph):
        if any(read in latest and latest[read] >= position for read in saved[name]):
            stale.append(name)
    return stale
    ### END SOLUTION


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
    ### BEGIN SOLUTION
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be a whole number of at least 1, not {every!r}")
    if not graph:
        raise ValueError("the graph has no nodes")
    if output is None:
        output = graph[-1][0]
    last = None  # the output's position
    for position, (name, _op, inputs) in enumerate(graph):
        before = graph[position - 1][0] if position else None
        for read in inputs:
            if read != before and read not in leaves:
                raise ValueError(
                    f"node {name!r} reads {read!r}, which is neither a leaf nor the node just before it "
                    f"({before!r}): backward_checkpointed takes a sequential graph"
                )
        if name == output and last is None:
            last = position
    if last is None:
        if output in leaves:
            return {leaf: 1.0 if leaf == output else 0.0 for leaf in leaves}, 0
        raise ValueError(f"output {output!r} is neither a node of the graph nor a leaf")

    def arguments(position, previous_value):
        before = graph[position - 1][0] if position else None
        return [previous_value if read == before else leaves[read] for read in graph[position][2]]

    def run(position, previous_value):
        return OPS[graph[position][1]](*arguments(position, previous_value))

    def is_checkpoint(position):
        return position % every == every - 1

    checkpoints = []  # checkpoints[k] is the value of the node at position (k + 1) * every - 1
    value = None
    for position in range(last + 1):
        value = run(position, value)
        if is_checkpoint(position):
            checkpoints.append(value)
    value = None

    grads = {leaf: 0.0 for leaf in leaves}
    recomputed = 0
    upstream = 1.0  # dL/d(the node at the end of the segment being swept)
    end = last
    while end >= 0:
        start = end - end % every  # the segment start..end follows the checkpoint at start - 1
        entry = checkpoints[start // every - 1] if start else None
        held = []  # the segment's values, recomputed once
        for position in range(start, end + 1):
            if is_checkpoint(position):
                held.append(checkpoints[position // every])
            else:
                held.append(run(position, held[-1] if held else entry))
                recomputed += 1
        for position in range(end, start - 1, -1):
            name, op, inputs = graph[position]
            before = graph[position - 1][0] if position else None
            previous_value = held[position - start - 1] if position > start else entry
            local = SLOPES[op](*arguments(position, previous_value), held[position - start])
            down = 0.0  # dL/d(the node before), from this node, its only reader
            for read, slope in zip(inputs, local):
                if read == before:
                    down += upstream * slope
                else:
                    grads[read] += upstream * slope
            upstream = down
        held = None
        end = start - 1
    return grads, recomputed
    ### END SOLUTION
