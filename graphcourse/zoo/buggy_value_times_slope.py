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
PATCH = [("grads[name] * slope  # add, never assign: fan-out sums", "values[name] * slope")]
