"""Tape and Var as dataclasses (the Var compared by identity, eq=False), the operators going through one recording function."""

from dataclasses import dataclass, field

FUNCTION = None
FAILS = []
MODULE = "tape"


@dataclass
class Tape:
    graph: list = field(default_factory=list)
    values: dict = field(default_factory=dict)
    used: int = 0  # constants made so far

    def leaf(self, name, value):
        if name in self.values:
            raise ValueError(f"{name!r} is already a name on this tape")
        self.values[name] = value
        return Var(self, name)


def _record(tape, op, operands):
    if any(isinstance(o, Var) and o.tape is not tape for o in operands):
        raise ValueError("Vars of different tapes cannot be combined")
    inputs = []
    for o in operands:
        if isinstance(o, Var):
            inputs.append(o.name)
        else:
            inputs.append(tape.leaf(f"k{tape.used}", o).name)
            tape.used += 1
    name = f"t{len(tape.graph)}"
    tape.values[name] = OPS[op](*[tape.values[i] for i in inputs])
    tape.graph.append((name, op, inputs))
    return Var(tape, name)


@dataclass(eq=False)
class Var:
    tape: Tape = field(repr=False)
    name: str

    @property
    def value(self):
        return self.tape.values[self.name]

    def __add__(self, other):
        return _record(self.tape, "add", (self, other))

    def __radd__(self, other):
        return _record(self.tape, "add", (other, self))

    def __sub__(self, other):
        return _record(self.tape, "sub", (self, other))

    def __rsub__(self, other):
        return _record(self.tape, "sub", (other, self))

    def __mul__(self, other):
        return _record(self.tape, "mul", (self, other))

    def __rmul__(self, other):
        return _record(self.tape, "mul", (other, self))

    def __truediv__(self, other):
        return _record(self.tape, "div", (self, other))

    def __rtruediv__(self, other):
        return _record(self.tape, "div", (other, self))

    def __neg__(self):
        return _record(self.tape, "neg", (self,))

    def sq(self):
        return _record(self.tape, "sq", (self,))

    def tanh(self):
        return _record(self.tape, "tanh", (self,))

    def relu(self):
        return _record(self.tape, "relu", (self,))


def trace(fn, leaves):
    tape = Tape()
    result = fn(**{name: tape.leaf(name, value) for name, value in leaves.items()})
    if not isinstance(result, Var) or result.tape is not tape:
        raise ValueError(f"the traced function returned {result!r}, which is not a Var of its tape")
    return tape.graph, tape.values, result.name


def tree_size(graph, output):
    sizes = dict.fromkeys((i for _n, _o, inputs in graph for i in inputs), 1)
    for name, _op, inputs in graph:
        sizes[name] = 1 + sum(sizes[i] for i in inputs)
    return sizes.get(output, 1)
