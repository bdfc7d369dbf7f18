"""Copies each node's inputs as a sorted set: b - a becomes a - b, and mul t t loses its second read."""

FUNCTION = "topological_order"
FAILS = ["order_agrees"]


def topological_order(nodes):
    waiting = {name: sum(i in nodes for i in inputs) for name, (_op, inputs) in nodes.items()}
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        for i in inputs:
            if i in nodes:
                readers[i].append(name)
    ready = deque(name for name, count in waiting.items() if count == 0)
    graph = []
    while ready:
        name = ready.popleft()
        graph.append((name, nodes[name][0], sorted(set(nodes[name][1]))))
        for reader in readers[name]:
            waiting[reader] -= 1
            if waiting[reader] == 0:
                ready.append(reader)
    if len(graph) < len(nodes):
        name = next(n for n, count in waiting.items() if count > 0)
        seen = set()
        while name not in seen:
            seen.add(name)
            name = next(i for i in nodes[name][1] if i in nodes and waiting[i] > 0)
        raise ValueError(f"the records have a cycle through {name!r}")
    return graph
