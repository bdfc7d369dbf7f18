"""Lists the leaves too, as entries ("x", "leaf", []) ahead of the nodes: leaves are not nodes of the graph."""

FUNCTION = "topological_order"
FAILS = ["order_leaves"]


def topological_order(nodes):
    leaves = [i for _op, inputs in nodes.values() for i in inputs if i not in nodes]
    graph = [(leaf, "leaf", []) for leaf in dict.fromkeys(leaves)]
    waiting = {name: sum(i in nodes for i in inputs) for name, (_op, inputs) in nodes.items()}
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        for i in inputs:
            if i in nodes:
                readers[i].append(name)
    ready = deque(name for name, count in waiting.items() if count == 0)
    listed = 0
    while ready:
        name = ready.popleft()
        listed += 1
        graph.append((name, nodes[name][0], list(nodes[name][1])))
        for reader in readers[name]:
            waiting[reader] -= 1
            if waiting[reader] == 0:
                ready.append(reader)
    if listed < len(nodes):
        name = next(n for n, count in waiting.items() if count > 0)
        seen = set()
        while name not in seen:
            seen.add(name)
            name = next(i for i in nodes[name][1] if i in nodes and waiting[i] > 0)
        raise ValueError(f"the records have a cycle through {name!r}")
    return graph
