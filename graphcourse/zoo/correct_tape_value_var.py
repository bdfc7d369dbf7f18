"""A Var that holds its own value, computed from its operands' values; the tape keeps a copy of each under its name."""

FUNCTION = None
FAILS = []
MODULE = "tape"


class Tape:
    def __init__(self):
        self.graph = []
        self.values = {}
        self.constants = 0

    def leaf(self, name, value):
        if name in self.values:
            raise ValueError(f"there is already a {name!r} on this tape")
        self.values[name] = value
        return Var(self, name, value)

    def operand(self, thing):
        if isinstance(thing, Var):
            if thing.tape is not self:
                raise ValueError(f"{thing.name} was recorded on another tape")
            return thing
        constant = self.leaf("k" + str(self.constants), thing)
        self.constants += 1
        return constant


class Var:
    def __init__(self, tape, name, value):
        self.tape = tape
        self.name = name
        self.value = value

    def _op(self, op, *operands):
        tape = self.tape
        for thing in operands:  # another tape's Var is refused before any constant is made
            if isinstance(thing, Var) and thing.tape is not tape:
                raise ValueError(f"{thing.name} was recorded on another tape")
        operands = [tape.operand(thing) for thing in operands]
        value = OPS[op](*[o.value for o in operands])
        name = "t" + str(len(tape.graph))
        tape.graph.append((name, op, [o.name for o in operands]))
        tape.values[name] = value
        return Var(tape, name, value)

    def __add__(self, other):
        return self._op("add", self, other)

    def __radd__(self, other):
        return self._op("add", other, self)

    def __sub__(self, other):
        return self._op("sub", self, other)

    def __rsub__(self, other):
        return self._op("sub", other, self)

    def __mul__(self, other):
        return self._op("mul", self, other)

    def __rmul__(self, other):
        return self._op("mul", other, self)

    def __truediv__(self, other):
        return self._op("div", self, other)

    def __rtruediv__(self, other):
        return self._op("div", other, self)

    def __neg__(self):
        return self._op("neg", self)

    def sq(self):
        return self._op("sq", self)

    def tanh(self):
        return self._op("tanh", self)

    def relu(self):
        return self._op("relu", self)


def trace(fn, leaves):
    tape = Tape()
    result = fn(**{name: tape.leaf(name, leaves[name]) for name in list(leaves)})
    if type(result) is not Var or result.tape is not tape:
        raise ValueError("the function must return a Var of the tape it was traced on")
    return tape.graph, tape.values, result.name


def tree_size(graph, output):
    size = {}
    for name, _op, inputs in graph:
        total = 1
        for i in inputs:
            total += size[i] if i in size else 1
        size[name] = total
    return size[output] if output in size else 1
