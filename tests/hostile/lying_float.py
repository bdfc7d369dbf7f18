"""Float subclass whose stored value is wrong but whose __eq__, __float__ and __repr__ claim the right answer (evaluate and backward)."""

EXPECTED = {"evaluate": 0, "inputs_of": "full", "users_of": "full", "backward": 10}
CHECKS = "all"  # backward keeps its property families (deep_graph, linear_time, no_mutation: 10 points): its sweep
# is a loop, linear and leaves the arguments alone, and its stored gradients, each 1 less than right, are wrong
# alike on the short and the long input those families compare. Every value family pays nothing.


class LyingFloat(float):
    """Stores one number; float(), repr() and == all pretend it is another."""

    def __new__(cls, stored, claimed):
        self = super().__new__(cls, stored)
        self.claimed = claimed
        return self

    def __float__(self):
        return float(self.claimed)

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = float.__hash__

    def __repr__(self):
        return repr(float(self.claimed))

    __str__ = __repr__


def right_values(graph, leaves):
    """The right values, computed without checking the order (a missing name reads as 0.0)."""
    values = dict(leaves)
    for name, op, inputs in graph:
        try:
            values[name] = FORWARD[op](*[values.get(i, 0.0) for i in inputs])
        except (ArithmeticError, ValueError):
            values[name] = 0.0
    return values


def right_gradients(graph, values, output=None):
    output = graph[-1][0] if output is None else output
    grads = dict.fromkeys(values, 0.0)
    grads[output] = 1.0
    for name, op, inputs in reversed(graph):
        local = SLOPES[op](*[values[i] for i in inputs], values[name])
        for i, slope in zip(inputs, local):
            grads[i] += grads[name] * slope
    return grads


def evaluate(graph, leaves):
    return {name: LyingFloat(value + 1.0, value) for name, value in right_values(graph, leaves).items()}


def backward(graph, values, output=None):
    return {name: LyingFloat(g - 1.0, g) for name, g in right_gradients(graph, values, output).items()}
