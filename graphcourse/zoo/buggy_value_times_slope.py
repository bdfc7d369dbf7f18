"""Multiplies each local slope by the node's forward value instead of by the node's gradient."""

FUNCTION = "backward"
FAILS = ["local_slopes", "fan_out_accumulation", "finite_difference_agreement"]
ALSO = {
    'backward_every_name': (
        'Every contribution is multiplied by a forward value instead of a gradient, so every number the sweep produces is wrong: no family that checks a number can pass.'
    ),
    'deep_graph': (
        'Every contribution is multiplied by a forward value instead of a gradient, and the blocks of the property families hold values that differ from block to block, so the answer on a long input does not follow from the answer on a short one: the family cannot tell it from a special case for size.'
    ),
    'linear_time': (
        'Every contribution is multiplied by a forward value instead of a gradient, and the blocks of the property families hold values that differ from block to block, so the answer on a long input does not follow from the answer on a short one: the family cannot tell it from a special case for size.'
    ),
    'no_mutation': (
        'Every contribution is multiplied by a forward value instead of a gradient, and the blocks of the property families hold values that differ from block to block, so the answer on a long input does not follow from the answer on a short one: the family cannot tell it from a special case for size.'
    ),
    'reverse_order': (
        'Every contribution is multiplied by a forward value instead of a gradient, so every number the sweep produces is wrong: no family that checks a number can pass.'
    ),
}


def backward(graph, values, output=None):
    slopes = {
        "add": lambda a, b, out: (1.0, 1.0),
        "sub": lambda a, b, out: (1.0, -1.0),
        "mul": lambda a, b, out: (b, a),
        "div": lambda a, b, out: (1.0 / b, -a / (b * b)),
        "sq": lambda a, out: (2.0 * a,),
        "tanh": lambda a, out: (1.0 - out * out,),
        "relu": lambda a, out: (1.0 if a > 0 else 0.0,),
        "neg": lambda a, out: (-1.0,),
    }
    if output is None:
        output = graph[-1][0]
    grads = {name: 0.0 for name in values}
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = slopes[op](*(values[i] for i in inputs), values[name])
        for i, slope in zip(inputs, local):
            grads[i] += values[name] * slope
    return grads
