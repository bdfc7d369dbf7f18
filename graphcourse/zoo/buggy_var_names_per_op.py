"""Numbers each entry among the entries of its own op (the first mul is t0, and so is the first add): names are reused."""

FUNCTION = "Var"
FAILS = ["tape_records"]
PATCH = [
    ("self.tape.record(", "self._apply(", 12),
    (
        "    def __repr__(self):",
        """    def _apply(self, op, operands):
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

    def __repr__(self):""",
    ),
]
