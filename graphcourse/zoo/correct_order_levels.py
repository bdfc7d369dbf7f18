"""Levels by depth: each node's depth is one more than its deepest input's, and the nodes are listed level by level."""

FUNCTION = None
FAILS = []
MODULE = "order"


def topological_order(nodes):
    unfinished = {name: 0 for name in nodes}
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        for i in inputs:
            if i in nodes:
                unfinished[name] += 1
                readers[i].append(name)
    depth = {name: 0 for name, count in unfinished.items() if count == 0}
    frontier = list(depth)
    while frontier:
        name = frontier.pop()
        for reader in readers[name]:
            depth[reader] = max(depth.get(reader, 0), depth[name] + 1)
            unfinished[reader] -= 1
            if unfinished[reader] == 0:
                frontier.append(reader)
    stuck = {name for name, count in unfinished.items() if count > 0}
    if stuck:
        name, walked = next(iter(stuck)), set()
        while name not in walked:
            walked.add(name)
            name = next(i for i in nodes[name][1] if i in stuck)
        raise ValueError(f"no order exists: {name} is on a cycle")
    levels = {}
    for name, level in depth.items():
        levels.setdefault(level, []).append(name)
    return [(name, nodes[name][0], list(nodes[name][1])) for level in sorted(levels) for name in levels[level]]
