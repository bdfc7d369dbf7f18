"""Defines __add__, __mul__ and the others but none of the reflected __radd__, __rmul__, ...: 2 * x raises TypeError."""

FUNCTION = "Var"
FAILS = ["tape_constants"]
PATCH = [
    (
        "def __radd__(self, other):  # other + self, when other is a number\n"
        '        return self.tape.record("add", [other, self])\n\n    ',
        "",
    ),
    ('def __rsub__(self, other):\n        return self.tape.record("sub", [other, self])\n\n    ', ""),
    ('def __rmul__(self, other):\n        return self.tape.record("mul", [other, self])\n\n    ', ""),
    ('def __rtruediv__(self, other):\n        return self.tape.record("div", [other, self])\n\n    ', ""),
]
