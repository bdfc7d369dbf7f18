"""Writes a number into the entry's inputs as it is (("t0", "mul", [2, "x"])): the constant never becomes a leaf of the tape."""

FUNCTION = "Var"
FAILS = ["tape_constants"]


class Var:
    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    def _apply(self, op, operands):
        tape = self.tape
        for operand in operands:
            if isinstance(operand, Var) and operand.tape is not tape:
                raise ValueError(f"{operand.name!r} belongs to another tape")
        name = f"t{len(tape.graph)}"
        tape.values[name] = OPS[op](*(o.value if isinstance(o, Var) else o for o in operands))
        tape.graph.append((name, op, [o.name if isinstance(o, Var) else o for o in operands]))
        return Var(tape, name)

    def __add__(self, other):
        return self._apply("add", [self, other])

    def __radd__(self, other):
        return self._apply("add", [other, self])

    def __sub__(self, other):
        return self._apply("sub", [self, other])

    def __rsub__(self, other):
        return self._apply("sub", [other, self])

    def __mul__(self, other):
        return self._apply("mul", [self, other])

    def __rmul__(self, other):
        return self._apply("mul", [other, self])

    def __truediv__(self, other):
        return self._apply("div", [self, other])

    def __rtruediv__(self, other):
        return self._apply("div", [other, self])

    def __neg__(self):
        return self._apply("neg", [self])

    def sq(self):
        return self._apply("sq", [self])

    def tanh(self):
        return self._apply("tanh", [self])

    def relu(self):
        return self._apply("relu", [self])
