"""Raises ValueError on a cycle, but its message names no node, so the recorder's author cannot tell where to look."""

FUNCTION = "topological_order"
FAILS = ["order_cycle"]


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
        graph.append((name, nodes[name][0], list(nodes[name][1])))
        for reader in readers[name]:
            waiting[reader] -= 1
            if waiting[reader] == 0:
                ready.append(reader)
    if len(graph) < len(nodes):
        raise ValueError("the records have a cycle, so no order exists")
    return graph
