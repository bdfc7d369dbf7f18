"""Recomputes a node's input from its segment's checkpoint each time the sweep needs it, not once per segment."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_recomputed"]
ALSO = {"checkpoint_memory": "recomputing per use costs every/2 ops a node: on the memory check's chain (60,000 nodes, "
                               "every=244) about 7 million, past the call's 4 s"}


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

    checkpoints, value = {}, None
    for position in range(last + 1):
        value = OPS[graph[position][1]](*arguments(position, value))
        if position % every == every - 1:
            checkpoints[position] = value
    count = 0

    def value_at(position):  # from the checkpoint before its segment, each time it is asked for
        nonlocal count
        if position in checkpoints:
            return checkpoints[position]
        start = position - position % every
        value = checkpoints.get(start - 1)
        for k in range(start, position + 1):
            value = checkpoints[k] if k in checkpoints else OPS[graph[k][1]](*arguments(k, value))
            count += k not in checkpoints
        return value

    grads = {leaf: 0.0 for leaf in leaves}
    upstream = 1.0
    for position in range(last, -1, -1):
        name, op, inputs = graph[position]
        before = graph[position - 1][0] if position else None
        previous = value_at(position - 1) if position else None
        down = 0.0
        for read, slope in zip(inputs, SLOPES[op](*arguments(position, previous), value_at(position))):
            if read == before:
                down += upstream * slope
            else:
                grads[read] += upstream * slope
        upstream = down
    return grads, count
