"""Keeps every node's value from the forward pass and sweeps them all at once: right numbers and count, no memory saved."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_memory"]


def backward_checkpointed(graph, leaves, every, output=None):
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be a whole number of at least 1, not {every!r}")
    output = graph[-1][0] if output is None else output
    for position, (name, _op, inputs) in enumerate(graph):
        before = graph[position - 1][0] if position else None
        if any(read != before and read not in leaves for read in inputs):
            raise ValueError(f"node {name!r} reads more than the leaves and the node just before it")
    if output in leaves and all(name != output for name, _op, _inputs in graph):
        return {leaf: 1.0 if leaf == output else 0.0 for leaf in leaves}, 0
    last = next(position for position, (name, _op, _inputs) in enumerate(graph) if name == output)

    def arguments(position, previous):
        before = graph[position - 1][0] if position else None
        return [previous if read == before else leaves[read] for read in graph[position][2]]

    values = []  # every node's value, "checkpointed" all at once
    for position in range(last + 1):
        values.append(OPS[graph[position][1]](*arguments(position, values[-1] if values else None)))
    grads = {leaf: 0.0 for leaf in leaves}
    upstream = 1.0
    for position in range(last, -1, -1):
        name, op, inputs = graph[position]
        before = graph[position - 1][0] if position else None
        previous = values[position - 1] if position else None
        down = 0.0
        for read, slope in zip(inputs, SLOPES[op](*arguments(position, previous), values[position])):
            if read == before:
                down += upstream * slope
            else:
                grads[read] += upstream * slope
        upstream = down
    return grads, last + 1 - (last + 1) // every  # the count the contract asks for, though nothing was recomputed
