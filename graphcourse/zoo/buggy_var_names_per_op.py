"""Numbers each entry among the entries of its own op (the first mul is t0, and so is the first add): names are reused."""

FUNCTION = "Var"
FAILS = ["tape_records"]


class Var:
    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    def _apply(self, op, operands):
        tape = self.tape
        inputs = []
        for operand in operands:
            if isinstance(operand, Var):
                if operand.tape is not tape:
                    raise ValueError(f"{operand.name!r} belongs to another tape")
                inputs.append(operand.name)
            else:
                inputs.append(tape.leaf(f"k{tape.constants}", operand).name)
                tape.constants += 1
        value = OPS[op](*(tape.values[i] for i in inputs))
        counts = tape.__dict__.setdefault("per_op", {})  # a count for each op, as if each kind had its own names
        name = f"t{counts.get(op, 0)}"
        counts[op] = counts.get(op, 0) + 1
        tape.values[name] = value
        tape.graph.append((name, op, inputs))
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
