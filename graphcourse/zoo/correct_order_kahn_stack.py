"""Kahn's algorithm with a plain list as a stack: the newest ready node goes first, another valid order than a queue's."""

FUNCTION = None
FAILS = []
MODULE = "order"


class CycleError(ValueError):
    pass


def topological_order(nodes):
    waiting = {}
    readers = {name: [] for name in nodes}
    for name, (_op, inputs) in nodes.items():
        waiting[name] = 0
        for i in inputs:
            if i in readers:
                readers[i].append(name)
                waiting[name] += 1
    ready = [name for name in nodes if waiting[name] == 0]
    graph = []
    while ready:
        name = ready.pop()
        op, inputs = nodes[name]
        graph.append((name, op, [*inputs]))
        for reader in readers[name]:
            waiting[reader] -= 1
            if not waiting[reader]:
                ready.append(reader)
    if len(graph) != len(nodes):
        left = [name for name in nodes if waiting[name]]
        path, name = [], left[0]
        while name not in path:
            path.append(name)
            name = next(i for i in nodes[name][1] if i in readers and waiting[i])
        raise CycleError("cycle " + " -> ".join(path[path.index(name):] + [name]))
    return graph
