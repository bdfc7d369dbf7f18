"""Tape and Var with __slots__ (no per-object dict), operands checked and recorded in one method of the tape."""

FUNCTION = None
FAILS = []
MODULE = "tape"


class Tape:
    __slots__ = ("graph", "values", "constants")

    def __init__(self):
        self.graph = []
        self.values = {}
        self.constants = 0

    def leaf(self, name, value):
        if name in self.values:
            raise ValueError(f"{name!r} is already on this tape")
        self.values[name] = value
        return Var(self, name)

    def record(self, op, *operands):
        for operand in operands:
            if isinstance(operand, Var) and operand.tape is not self:
                raise ValueError(f"{operand.name!r} is on another tape")
        names = []
        for operand in operands:
            if not isinstance(operand, Var):
                operand = self.leaf(f"k{self.constants}", operand)
                self.constants += 1
            names.append(operand.name)
        name = f"t{len(self.graph)}"
        self.values[name] = OPS[op](*map(self.values.__getitem__, names))
        self.graph.append((name, op, names))
        return Var(self, name)


class Var:
    __slots__ = ("tape", "name")

    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    def __add__(self, other):
        return self.tape.record("add", self, other)

    def __radd__(self, other):
        return self.tape.record("add", other, self)

    def __sub__(self, other):
        return self.tape.record("sub", self, other)

    def __rsub__(self, other):
        return self.tape.record("sub", other, self)

    def __mul__(self, other):
        return self.tape.record("mul", self, other)

    def __rmul__(self, other):
        return self.tape.record("mul", other, self)

    def __truediv__(self, other):
        return self.tape.record("div", self, other)

    def __rtruediv__(self, other):
        return self.tape.record("div", other, self)

    def __neg__(self):
        return self.tape.record("neg", self)

    def sq(self):
        return self.tape.record("sq", self)

    def tanh(self):
        return self.tape.record("tanh", self)

    def relu(self):
        return self.tape.record("relu", self)


def trace(fn, leaves):
    tape = Tape()
    out = fn(**{name: tape.leaf(name, value) for name, value in leaves.items()})
    if isinstance(out, Var) and out.tape is tape:
        return tape.graph, tape.values, out.name
    raise ValueError("fn must return a Var recorded on its trace's tape")


def tree_size(graph, output):
    counted = {}
    for name, _op, inputs in graph:
        counted[name] = 1 + sum(counted.get(i, 1) for i in inputs)
        if name == output:
            return counted[name]
    return 1
