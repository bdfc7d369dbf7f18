"""leaf hands back a Var of the name but keeps neither name nor value: a tape that records nothing earns nothing."""

FUNCTION = "Tape"
FAILS = ["tape_leaves"]
SCORES_ZERO = True


class Tape:
    def __init__(self):
        self.graph = []
        self.values = {}
        self.constants = 0

    def leaf(self, name, value):
        return Var(self, name)
