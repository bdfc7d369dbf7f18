"""Makes graph and values class attributes (graph = [] in the class body): every tape shares one list and one dict."""

FUNCTION = "Tape"
FAILS = ["tape_leaves"]


class Tape:
    graph = []  # one list and one dict, made once with the class, for every tape there will be
    values = {}

    def __init__(self):
        self.constants = 0

    def leaf(self, name, value):
        if name in self.values:
            raise ValueError(f"{name!r} is already on this tape")
        self.values[name] = value
        return Var(self, name)

    def record(self, op, operands):
        for operand in operands:
            if isinstance(operand, Var) and operand.tape is not self:
                raise ValueError(f"{operand.name!r} belongs to another tape")
        value = OPS[op](*(o.value if isinstance(o, Var) else o for o in operands))
        inputs = []
        for operand in operands:
            if not isinstance(operand, Var):
                operand = self.leaf(f"k{self.constants}", operand)
                self.constants += 1
            inputs.append(operand.name)
        name = f"t{len(self.graph)}"
        self.values[name] = value
        self.graph.append((name, op, inputs))
        return Var(self, name)
