"""Depth-first post-order with a stack of its own: a node is listed once every input of it is, no recursion."""

FUNCTION = None
FAILS = []
MODULE = "order"


def topological_order(nodes):
    state = {}  # name -> "open" while its inputs are being placed, "done" once it is listed
    graph = []
    for start in nodes:
        if start in state:
            continue
        stack = [(start, iter(nodes[start][1]))]
        state[start] = "open"
        while stack:
            name, pending = stack[-1]
            for i in pending:
                if i not in nodes or state.get(i) == "done":
                    continue
                if state.get(i) == "open":
                    raise ValueError(f"cycle: {i!r} depends on itself")
                state[i] = "open"
                stack.append((i, iter(nodes[i][1])))
                break
            else:
                stack.pop()
                state[name] = "done"
                op, inputs = nodes[name]
                graph.append((name, op, list(inputs)))
    return graph
