"""Refuses a Var of another tape in + alone: the other operators look its name up on their own tape, so they raise KeyError or record a wrong value."""

FUNCTION = "Var"
FAILS = ["tape_records"]


class Var:
    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    def _record(self, op, operands):
        """Append the entry on this Var's tape, every operand's value read from that tape by its name."""
        tape = self.tape
        value = OPS[op](*(tape.values[o.name] if isinstance(o, Var) else o for o in operands))
        inputs = []
        for operand in operands:
            if not isinstance(operand, Var):
                operand = tape.leaf(f"k{tape.constants}", operand)
                tape.constants += 1
            inputs.append(operand.name)
        name = f"t{len(tape.graph)}"
        tape.values[name] = value
        tape.graph.append((name, op, inputs))
        return Var(tape, name)

    def __add__(self, other):
        if isinstance(other, Var) and other.tape is not self.tape:
            raise ValueError(f"{other.name!r} belongs to another tape")
        return self._record("add", [self, other])

    def __radd__(self, other):
        return self._record("add", [other, self])

    def __sub__(self, other):
        return self._record("sub", [self, other])

    def __rsub__(self, other):
        return self._record("sub", [other, self])

    def __mul__(self, other):
        return self._record("mul", [self, other])

    def __rmul__(self, other):
        return self._record("mul", [other, self])

    def __truediv__(self, other):
        return self._record("div", [self, other])

    def __rtruediv__(self, other):
        return self._record("div", [other, self])

    def __neg__(self):
        return self._record("neg", [self])

    def sq(self):
        return self._record("sq", [self])

    def tanh(self):
        return self._record("tanh", [self])

    def relu(self):
        return self._record("relu", [self])
