"""Counts every node the sweep walks as recomputed, the checkpoints too: recomputed is then the whole chain."""

FUNCTION = "backward_checkpointed"
FAILS = ["checkpoint_recomputed"]


def backward_checkpointed(graph, leaves, every, output=None):
    output = graph[-1][0] if output is None else output
    for k, (name, _op, inputs) in enumerate(graph):
        before = graph[k - 1][0] if k else None
        if any(read != before and read not in leaves for read in inputs):
            raise ValueError(f"node {name!r} reads more than leaves and the node before it")
    last = [name for name, _op, _inputs in graph].index(output)

    def arguments(k, previous):
        before = graph[k - 1][0] if k else None
        return [previous if read == before else leaves[read] for read in graph[k][2]]

    kept = {}  # checkpoint position -> its value
    value = None
    for k in range(last + 1):
        value = OPS[graph[k][1]](*arguments(k, value))
        if k % every == every - 1:
            kept[k] = value
    grads = dict.fromkeys(leaves, 0.0)
    recomputed, upstream, end = 0, 1.0, last
    while end >= 0:
        start = end - end % every
        value, segment = kept.get(start - 1), []  # segment: (arguments, value) at each position
        for k in range(start, end + 1):
            args = arguments(k, value)
            value = kept[k] if k in kept else OPS[graph[k][1]](*args)
            recomputed += 1  # every node of the segment, its checkpoint included
            segment.append((args, value))
        for k in range(end, start - 1, -1):
            args, own = segment[k - start]
            before = graph[k - 1][0] if k else None
            down = 0.0
            for read, slope in zip(graph[k][2], SLOPES[graph[k][1]](*args, own)):
                if read == before:
                    down += upstream * slope
                else:
                    grads[read] += upstream * slope
            upstream = down
        end = start - 1
    return grads, recomputed
