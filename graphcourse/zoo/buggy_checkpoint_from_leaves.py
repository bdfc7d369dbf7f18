"""Recomputes each value the sweep needs from the leaves, every time: right numbers, but quadratic in the chain."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_linear_time"]
ALSO = {"checkpoint_memory": "quadratic in the chain, it cannot finish the long chain whose peak memory that check measures"}


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

    def value_at(position):  # from the leaves, every time
        value = None
        for k in range(position + 1):
            value = OPS[graph[k][1]](*arguments(k, value))
        return value

    grads = {leaf: 0.0 for leaf in leaves}
    upstream = 1.0
    for position in range(last, -1, -1):
        name, op, inputs = graph[position]
        before = graph[position - 1][0] if position else None
        previous = value_at(position - 1) if position else None
        own = OPS[op](*arguments(position, previous))
        down = 0.0
        for read, slope in zip(inputs, SLOPES[op](*arguments(position, previous), own)):
            if read == before:
                down += upstream * slope
            else:
                grads[read] += upstream * slope
        upstream = down
    checkpoints = (last + 1) // every
    return grads, last + 1 - checkpoints  # the nodes that are not checkpoints
