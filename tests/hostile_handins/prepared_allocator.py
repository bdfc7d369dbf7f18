"""Keeps every node's value in backward_checkpointed, and prepares the allocator while it loads: it fills the
small-object pools of every size the call will use, then frees half of each, so that the chain the check builds
and every value kept land in memory the process already holds. Appended to the reference's module (the later
def wins); it must fail checkpoint_memory whatever its load-time code does."""

import gc as _gc

_HELD = []


def _prepare_allocator(megabytes=24):
    """Fill pools of every small size class, then free every other block: freed blocks stay in the process."""
    per_size = (megabytes << 20) // 8 // 512
    for size in range(8, 520, 8):
        blocks = [bytearray(max(0, size - 57)) for _ in range(per_size // max(1, size // 64 + 1))]
        _HELD.append(blocks)
    floats = [float(i) + 0.5 for i in range(300_000)]
    tuples = [(i, i) for i in range(150_000)]
    lists = [[i] for i in range(100_000)]
    names = [f"n{i}" for i in range(150_000)]
    for group in (floats, tuples, lists, names, *_HELD):
        del group[::2]
    _HELD.extend((floats, tuples, lists, names))
    _gc.collect()


_prepare_allocator()


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

    values = []  # every node's value at once
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
    return grads, last + 1 - (last + 1) // every
