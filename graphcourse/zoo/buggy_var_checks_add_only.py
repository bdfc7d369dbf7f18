"""Refuses a Var of another tape in + alone: the other operators look its name up on their own tape, so they raise KeyError or record a wrong value."""

FUNCTION = "Var"
FAILS = ["tape_records"]
PATCH = [
    ("self.tape.record(", "self._record(", 12),
    (
        "    def __repr__(self):",
        """    def _record(self, op, operands):
        \"\"\"Append the entry on this Var's tape, every operand's value read from that tape by its name.\"\"\"
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

    def __repr__(self):""",
    ),
    (
        '    def __add__(self, other):\n',
        """    def __add__(self, other):
        if isinstance(other, Var) and other.tape is not self.tape:
            raise ValueError(f"{other.name!r} belongs to another tape")
""",
    ),
]
