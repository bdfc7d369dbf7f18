"""Assigns a gradient instead of adding to it, so at a fan-out only one contribution survives."""

FUNCTION = "backward"
FAILS = ["fan_out_accumulation"]


def backward(graph, values, output=None):
    if output is None:
        output = graph[-1][0]
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        upstream = grads[name]
        if upstream == 0.0:
            continue  # nothing flows back through this node
        ins = [values[i] for i in inputs]
        out = values[name]
        if op == "add":
            local = [1.0, 1.0]
        elif op == "sub":
            local = [1.0, -1.0]
        elif op == "mul":
            local = [ins[1], ins[0]]
        elif op == "div":
            local = [1.0 / ins[1], -ins[0] / (ins[1] * ins[1])]
        elif op == "sq":
            local = [2.0 * ins[0]]
        elif op == "tanh":
            local = [1.0 - out * out]
        elif op == "relu":
            local = [1.0 if ins[0] > 0 else 0.0]
        else:  # neg
            local = [-1.0]
        for i, slope in zip(inputs, local):
            grads[i] = upstream * slope
    return grads
