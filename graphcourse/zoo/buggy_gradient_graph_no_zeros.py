"""Gives grads entries only for the names the sweep reached: what L does not depend on has no node of value 0.0."""

FUNCTION = "gradient_graph"
FAILS = ["gradient_graph_names"]
PATCH = [
    (
        "if len(grad) < len(names):\n"
        '        zero = node("sub", one, one)\n'
        "        grad = {name: grad.get(name, zero) for name in names}\n"
        "    return graph2, {name: grad[name] for name in names}",
        "return graph2, {name: grad[name] for name in names if name in grad}",
    ),
]
