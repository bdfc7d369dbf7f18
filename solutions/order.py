"""Order: turn records that are not a list into a graph the sweeps can run on.

A sequential program records each operation after the ones it read, so its
tape is already in a computable order. Records gathered with no total order
(threads, several workers, a parallel runtime) come as a dict instead:

    nodes = {"L": ("sq", ["q"]), "p": ("mul", ["a", "b"]), "q": ("add", ["p", "a"])}
    topological_order(nodes)
    # [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]

Names that are not keys (a, b) are leaves. Any order in which every node
comes after its inputs is right; there may be many.
"""

from collections import deque


def topological_order(nodes):
    """Return a graph listing every node of ``nodes`` once, each after every input of it that is a node.

    ``nodes`` maps name -> (op, inputs); names that are not keys are leaves and
    are not listed. Each entry is ``(name, op, inputs)`` with ``inputs`` a new
    list, in the node's own order. Records with a cycle (a node reading itself
    included) raise ValueError naming a node on the cycle. Linear time in nodes
    plus edges, no recursion; ``nodes`` is not modified.
    """
    ### BEGIN SOLUTION
    # Kahn's algorithm: count each node's reads of unlisted nodes; list a node when its count reaches 0.
    waiting = {}
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        waiting[name] = 0
        for i in inputs:
            if i in nodes:
                readers[i].append(name)  # once per read, so mul u u is counted down twice
                waiting[name] += 1
    ready = deque(name for name, count in waiting.items() if count == 0)
    graph = []  # the nodes listed so far, each after its inputs
    while ready:
        name = ready.popleft()
        op, inputs = nodes[name]
        graph.append((name, op, list(inputs)))
        for reader in readers[name]:
            waiting[reader] -= 1
            if waiting[reader] == 0:
                ready.append(reader)
    if len(graph) < len(nodes):
        # Every node left waits on an unlisted input; following such inputs must come back round.
        name = next(n for n, count in waiting.items() if count > 0)
        seen = {}
        while name not in seen:
            seen[name] = len(seen)
            name = next(i for i in nodes[name][1] if i in nodes and waiting[i] > 0)
        cycle = list(seen)[seen[name] :]
        shown = " -> ".join(repr(n) for n in cycle[:5]) + (" -> ..." if len(cycle) > 5 else "") + f" -> {name!r}"
        raise ValueError(
            f"the records have a cycle, so no order exists: node {name!r} depends on itself ({shown}, "
            "each reading the next)"
        )
    return graph
    ### END SOLUTION
