"""Defines __add__, __mul__ and the others but none of the reflected __radd__, __rmul__, ...: 2 * x raises TypeError."""

FUNCTION = "Var"
FAILS = ["tape_constants"]


class Var:
    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    def __add__(self, other):
        return self.tape.record("add", [self, other])

    def __sub__(self, other):
        return self.tape.record("sub", [self, other])

    def __mul__(self, other):
        return self.tape.record("mul", [self, other])

    def __truediv__(self, other):
        return self.tape.record("div", [self, other])

    def __neg__(self):
        return self.tape.record("neg", [self])

    def sq(self):
        return self.tape.record("sq", [self])

    def tanh(self):
        return self.tape.record("tanh", [self])

    def relu(self):
        return self.tape.record("relu", [self])
