"""Scans the records for a node whose inputs are all listed, again for every node: right, but quadratic."""

FUNCTION = "topological_order"
FAILS = ["order_linear_time"]


def topological_order(nodes):
    remaining, listed, graph = list(nodes), set(), []
    while remaining:
        for k, name in enumerate(remaining):
            if all(i in listed or i not in nodes for i in nodes[name][1]):
                break
        else:
            name = remaining[0]
            seen = set()
            while name not in seen:
                seen.add(name)
                name = next(i for i in nodes[name][1] if i in nodes and i not in listed)
            raise ValueError(f"the records have a cycle through {name!r}")
        del remaining[k]
        listed.add(name)
        graph.append((name, nodes[name][0], list(nodes[name][1])))
    return graph
