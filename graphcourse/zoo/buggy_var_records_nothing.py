"""Every operator hands back the Var it was called on and records nothing: a tape that ignores the program earns nothing."""

FUNCTION = "Var"
FAILS = ["tape_records", "tape_sharing", "tape_order", "tape_constants"]
SCORES_ZERO = True


class Var:
    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    def __add__(self, other):
        return self

    __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __add__

    def __neg__(self):
        return self

    def sq(self):
        return self

    def tanh(self):
        return self

    def relu(self):
        return self
