"""Keeps the ready nodes in a list and takes the next one with pop(0), which moves every node behind it: quadratic on wide records."""

FUNCTION = "topological_order"
FAILS = ["order_linear_time"]


def topological_order(nodes):
    waiting = {name: 0 for name in nodes}
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        for i in inputs:
            if i in nodes:
                readers[i].append(name)
                waiting[name] += 1
    ready = [name for name, count in waiting.items() if count == 0]
    graph = []
    while ready:
        name = ready.pop(0)  # every node still waiting in the list moves up one place
        op, inputs = nodes[name]
        graph.append((name, op, list(inputs)))
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
