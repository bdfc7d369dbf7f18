"""Hands the records back in the order they came: an ordering pass that orders nothing earns nothing."""

FUNCTION = "topological_order"
FAILS = ["order_valid", "order_once", "order_leaves", "order_cycle", "order_deep", "order_linear_time", "order_no_mutation",
         "order_agrees"]
SCORES_ZERO = True


def topological_order(nodes):
    return [(name, op, list(inputs)) for name, (op, inputs) in nodes.items()]
