"""Numbers each entry among the entries of its own op (the first mul is t0, and so is the first add): names are reused."""

FUNCTION = "Var"
FAILS = ["tape_records"]
PATCH = [
    ("self.tape.record(", "self._apply(", 12),
    (
        "    def __repr__(self):",
        """    def _apply(self, op, operands):
        tape = self.tape
        made = tape.record(op, operands)
        counts = tape.__dict__.setdefault("per_op", {})  # a count for each op, as if each kind had its own names
        name = f"t{counts.get(op, 0)}"
        counts[op] = counts.get(op, 0) + 1
        tape.values[name] = tape.values.pop(made.name)
        tape.graph[-1] = (name, op, tape.graph[-1][2])
        return Var(tape, name)

    def __repr__(self):""",
    ),
]
