"""Puts each new entry at the front of the tape (graph.insert(0, ...)): the entries come out newest first, not in the order they ran."""

FUNCTION = "Var"
FAILS = ["tape_order"]
PATCH = [
    ("self.tape.record(", "self._apply(", 12),
    (
        "    def __repr__(self):",
        """    def _apply(self, op, operands):
        new = self.tape.record(op, operands)
        self.tape.graph.insert(0, self.tape.graph.pop())  # the newest entry first
        return new

    def __repr__(self):""",
    ),
]
