"""Records a Var's whole expression again every time it is read, as a tree writes it out: a value used twice is copied, not shared."""

FUNCTION = "Var"
FAILS = ["tape_sharing"]


class Var:
    def __init__(self, tape, name, made_of=None):
        self.tape = tape
        self.name = name
        self.made_of = made_of  # (op, operands) for a node, None for a leaf or a constant

    @property
    def value(self):
        return self.tape.values[self.name]

    def _input(self, operand):
        if isinstance(operand, Var):
            return operand._read()
        name = f"k{self.tape.constants}"
        self.tape.constants += 1
        return self.tape.leaf(name, operand).name

    def _read(self):
        """The name to read this value under: a node records its expression once more for this read."""
        if self.made_of is None:
            return self.name
        op, operands = self.made_of
        return self._entry(op, operands).name

    def _entry(self, op, operands):
        tape = self.tape
        inputs = [self._input(operand) for operand in operands]
        name = f"t{len(tape.graph)}"
        tape.values[name] = OPS[op](*(tape.values[i] for i in inputs))
        tape.graph.append((name, op, inputs))
        return Var(tape, name, (op, operands))

    def _apply(self, op, operands):
        for operand in operands:
            if isinstance(operand, Var) and operand.tape is not self.tape:
                raise ValueError(f"{operand.name!r} belongs to another tape")
        return self._entry(op, operands)

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
