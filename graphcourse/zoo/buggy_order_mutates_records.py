"""Uses the caller's dict as its list of nodes still to place, deleting each one it lists: the records are gone."""

FUNCTION = "topological_order"
FAILS = ["order_no_mutation"]


def topological_order(nodes):
    total = len(nodes)
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
        op, inputs = nodes.pop(name)  # placed, so no longer waiting
        graph.append((name, op, list(inputs)))
        for reader in readers[name]:
            waiting[reader] -= 1
            if waiting[reader] == 0:
                ready.append(reader)
    if len(graph) < total:
        name = next(iter(n for n in nodes if waiting[n] > 0))
        seen = set()
        while name not in seen:
            seen.add(name)
            name = next(i for i in nodes[name][1] if i in nodes and waiting[i] > 0)
        raise ValueError(f"the records have a cycle through {name!r}")
    return graph
