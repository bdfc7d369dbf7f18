"""A Var that holds only its tape and name (its value is looked up), with the operators made by one helper from a table."""

FUNCTION = None
FAILS = []
MODULE = "tape"


class Tape:
    def __init__(self):
        self.graph, self.values, self._numbers = [], {}, 0

    def leaf(self, name, value):
        if name in self.values:
            raise ValueError(f"leaf {name} is on the tape already")
        self.values[name] = value
        return Var(self, name)

    def append(self, op, operands):
        if any(isinstance(o, Var) and o.tape is not self for o in operands):
            raise ValueError("operands from two different tapes")
        names = []
        for o in operands:
            if isinstance(o, Var):
                names.append(o.name)
            else:
                names.append(f"k{self._numbers}")
                self.values[names[-1]] = o
                self._numbers += 1
        name = f"t{len(self.graph)}"
        self.values[name] = OPS[op](*(self.values[n] for n in names))
        self.graph.append((name, op, names))
        return Var(self, name)


def _binary(op, reflected=False):
    def method(self, other):
        return self.tape.append(op, [other, self] if reflected else [self, other])
    return method


def _unary(op):
    def method(self):
        return self.tape.append(op, [self])
    return method


class Var:
    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    __add__, __radd__ = _binary("add"), _binary("add", reflected=True)
    __sub__, __rsub__ = _binary("sub"), _binary("sub", reflected=True)
    __mul__, __rmul__ = _binary("mul"), _binary("mul", reflected=True)
    __truediv__, __rtruediv__ = _binary("div"), _binary("div", reflected=True)
    __neg__, sq, tanh, relu = _unary("neg"), _unary("sq"), _unary("tanh"), _unary("relu")


def trace(fn, leaves):
    tape = Tape()
    kwargs = {}
    for name, value in leaves.items():
        kwargs[name] = tape.leaf(name, value)
    out = fn(**kwargs)
    if not (isinstance(out, Var) and out.tape is tape):
        raise ValueError(f"trace: fn returned {out!r}, not a Var of its own tape")
    return list(tape.graph), dict(tape.values), out.name


def tree_size(graph, output):
    sizes = {}
    for name, _op, inputs in graph:
        sizes[name] = 1 + sum(sizes.get(i, 1) for i in inputs)
    return sizes.get(output, 1)
