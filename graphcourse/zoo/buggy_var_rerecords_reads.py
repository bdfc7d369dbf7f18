"""Records a Var's whole expression again every time it is read, as a tree writes it out: a value used twice is copied, not shared."""

FUNCTION = "Var"
FAILS = ["tape_sharing"]
PATCH = [
    ("self.tape.record(", "self._apply(", 12),
    ("def __init__(self, tape, name):", "def __init__(self, tape, name, made_of=None):"),
    (
        "        self.name = name\n",
        "        self.name = name\n"
        "        self.made_of = made_of  # (op, operands) for a node, None for a leaf or a constant\n",
    ),
    (
        "    def __repr__(self):",
        '''    def _input(self, operand):
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

    def __repr__(self):''',
    ),
]
