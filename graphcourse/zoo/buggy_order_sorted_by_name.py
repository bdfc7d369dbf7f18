"""Sorts the nodes by name, as if names said the order: right for a tape's t0, t1, t2, wrong for records named anyhow."""

FUNCTION = "topological_order"
FAILS = ["order_valid"]


def topological_order(nodes):
    waiting = {name: sum(i in nodes for i in inputs) for name, (_op, inputs) in nodes.items()}
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        for i in inputs:
            if i in nodes:
                readers[i].append(name)
    ready = [name for name, count in waiting.items() if count == 0]
    listed = 0
    while ready:
        name = ready.pop()
        listed += 1
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
    return [(name, nodes[name][0], list(nodes[name][1])) for name in sorted(nodes)]
