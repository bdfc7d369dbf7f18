"""Writes a number into the entry's inputs as it is (("t0", "mul", [2, "x"])): the constant never becomes a leaf of the tape."""

FUNCTION = "Var"
FAILS = ["tape_constants"]
PATCH = [
    ("self.tape.record(", "self._apply(", 12),
    (
        "    def __repr__(self):",
        """    def _apply(self, op, operands):
        tape = self.tape
        for operand in operands:
            if isinstance(operand, Var) and operand.tape is not tape:
                raise ValueError(f"{operand.name!r} belongs to another tape")
        name = f"t{len(tape.graph)}"
        tape.values[name] = OPS[op](*(o.value if isinstance(o, Var) else o for o in operands))
        tape.graph.append((name, op, [o.name if isinstance(o, Var) else o for o in operands]))
        return Var(tape, name)

    def __repr__(self):""",
    ),
]
