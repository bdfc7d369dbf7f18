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


right_gradients = backward  # the shared honest code's (tests/hostile/shared/honest.py), defined before this file's


def evaluate(graph, leaves):
    return {name: LyingFloat(value + 1.0, value) for name, value in right_values(graph, leaves).items()}


def backward(graph, values, output=None):
    return {name: LyingFloat(g - 1.0, g) for name, g in right_gradients(graph, values, output).items()}
