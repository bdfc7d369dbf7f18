"""Places each node's inputs by a recursive call first: right, but 10,000 nested calls overflow the call stack."""

FUNCTION = "topological_order"
FAILS = ["order_deep"]


def topological_order(nodes):
    graph, placed, visiting = [], set(), set()

    def visit(name):
        if name in placed or name not in nodes:
            return
        if name in visiting:
            raise ValueError(f"the records have a cycle through {name!r}")
        visiting.add(name)
        op, inputs = nodes[name]
        for i in inputs:
            visit(i)
        visiting.discard(name)
        placed.add(name)
        graph.append((name, op, list(inputs)))

    for name in nodes:
        visit(name)
    return graph
