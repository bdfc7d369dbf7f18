"""Keeps the first node of each segment as its checkpoint (positions 0, every, 2*every, ...), one place too early."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_recomputed"]


def backward_checkpointed(graph, leaves, every, output=None):
    if output is None:
        output = graph[-1][0]
    for position, (name, _op, inputs) in enumerate(graph):
        before = graph[position - 1][0] if position else None
        for read in inputs:
            if read != before and read not in leaves:
                raise ValueError(f"node {name!r} reads {read!r}: not a sequential graph")
    last = next(k for k, (name, _op, _inputs) in enumerate(graph) if name == output)

    def arguments(position, previous):
        before = graph[position - 1][0] if position else None
        return [previous if read == before else leaves[read] for read in graph[position][2]]

    checkpoints = {}  # position -> value, at positions 0, every, 2*every, ...
    value = None
    for position in range(last + 1):
        value = OPS[graph[position][1]](*arguments(position, value))
        if position % every == 0:
            checkpoints[position] = value

    grads = {leaf: 0.0 for leaf in leaves}
    recomputed = 0
    upstream = 1.0
    start = last - last % every  # each segment starts at its checkpoint
    while start >= 0:
        end = min(start + every - 1, last)
        held = [checkpoints[start]]
        for position in range(start + 1, end + 1):
            held.append(OPS[graph[position][1]](*arguments(position, held[-1])))
            recomputed += 1
        entry = None  # the value of the node before the segment, which the checkpoint's own slopes read
        if start:  # the last node of the segment before: run on from that segment's checkpoint
            entry = checkpoints[start - every]
            for position in range(start - every + 1, start):
                entry = OPS[graph[position][1]](*arguments(position, entry))
        for position in range(end, start - 1, -1):
            name, op, inputs = graph[position]
            before = graph[position - 1][0] if position else None
            previous = held[position - start - 1] if position > start else entry
            down = 0.0
            for read, slope in zip(inputs, SLOPES[op](*arguments(position, previous), held[position - start])):
                if read == before:
                    down += upstream * slope
                else:
                    grads[read] += upstream * slope
            upstream = down
        start -= every
    return grads, recomputed
