"""Queues a reader once per edge from the node just listed, so a node that reads a node twice is listed twice."""

FUNCTION = "topological_order"
FAILS = ["order_once"]


def topological_order(nodes):
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        for i in inputs:
            if i in nodes:
                readers[i].append(name)
    ready = deque(name for name, (_op, inputs) in nodes.items() if not any(i in nodes for i in inputs))
    listed, graph = set(), []
    while ready:
        name = ready.popleft()
        listed.add(name)
        graph.append((name, nodes[name][0], list(nodes[name][1])))
        for reader in readers[name]:  # one entry per read: mul t t queues its reader twice
            if all(i in listed or i not in nodes for i in nodes[reader][1]):
                ready.append(reader)
    if len(listed) < len(nodes):
        name = next(n for n in nodes if n not in listed)
        seen = set()
        while name not in seen:
            seen.add(name)
            name = next(i for i in nodes[name][1] if i in nodes and i not in listed)
        raise ValueError(f"the records have a cycle through {name!r}")
    return graph
