"""The tape: a running program that records its own trace, one entry per operation.

A ``Tape`` holds a graph in the lesson-1 form and the value of every name on it.
A ``Var`` is a value on a tape; arithmetic on Vars computes the value *and*
appends one entry, so running ordinary Python code writes the graph:

    tape = Tape()
    x = tape.leaf("x", 2)
    a = x * x          # ("t0", "mul", ["x", "x"])
    t = a + a          # ("t1", "add", ["t0", "t0"])
    L = t * t          # ("t2", "mul", ["t1", "t1"]); L.value == 64

A number used as an operand becomes a constant leaf ``k<j>`` holding it:
``2 * x`` records ``("t0", "mul", ["k0", "x"])``. ``trace(fn, leaves)`` runs
``fn`` on a fresh tape; ``tree_size`` counts what the same record would cost
written out as a tree, with no sharing.
"""

import math

# The forward rule of every op, as in lesson 1: the inputs' values -> the node's value.
OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "sq": lambda a: a * a,
    "tanh": lambda a: math.tanh(a),
    "relu": lambda a: a if a > 0 else 0.0,
    "neg": lambda a: -a,
}


class Tape:
    """The record of one run: ``graph`` lists the entries in the order the operations ran, and ``values``
    maps every leaf, constant and node on the tape to its value."""

    def __init__(self):
        ### BEGIN SOLUTION
        self.graph = []
        self.values = {}
        self.constants = 0  # how many constants k0, k1, ... this tape holds
        ### END SOLUTION

    def leaf(self, name, value):
        """Put a new leaf ``name`` holding ``value`` on the tape and return its Var.

        Raises ValueError if ``name`` is already on this tape.
        """
        ### BEGIN SOLUTION
        if name in self.values:
            raise ValueError(f"{name!r} is already on this tape; give every leaf its own name")
        self.values[name] = value
        return Var(self, name)
        ### END SOLUTION

    def record(self, op, operands):
        """Append one entry ``("t<k>", op, inputs)`` for ``op`` applied to ``operands`` and return its Var.

        The operands are Vars of this tape or numbers, left operand first. Each
        number becomes a new constant leaf ``k<j>``. A Var of another tape
        raises ValueError. (The operators of Var call this; it is a helper, not
        part of what is graded.)
        """
        ### BEGIN SOLUTION
        for operand in operands:
            if isinstance(operand, Var) and operand.tape is not self:
                raise ValueError(f"{operand.name!r} belongs to another tape: one run records on one tape")
            if not isinstance(operand, (Var, int, float)):
                raise TypeError(f"{op} takes Vars and numbers, not {type(operand).__name__}")
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
        ### END SOLUTION


class Var:
    """A value on a tape. Its ``value`` is the one recorded under its ``name``; every operation on it
    appends one entry to the tape and returns a new Var."""

    def __init__(self, tape, name):
        self.tape = tape
        self.name = name

    @property
    def value(self):
        return self.tape.values[self.name]

    def __repr__(self):
        return f"Var({self.name!r}, {self.value!r})"

    def __add__(self, other):
        ### BEGIN SOLUTION
        return self.tape.record("add", [self, other])
        ### END SOLUTION

    def __radd__(self, other):  # other + self, when other is a number
        ### BEGIN SOLUTION
        return self.tape.record("add", [other, self])
        ### END SOLUTION

    def __sub__(self, other):
        ### BEGIN SOLUTION
        return self.tape.record("sub", [self, other])
        ### END SOLUTION

    def __rsub__(self, other):
        ### BEGIN SOLUTION
        return self.tape.record("sub", [other, self])
        ### END SOLUTION

    def __mul__(self, other):
        ### BEGIN SOLUTION
        return self.tape.record("mul", [self, other])
        ### END SOLUTION

    def __rmul__(self, other):
        ### BEGIN SOLUTION
        return self.tape.record("mul", [other, self])
        ### END SOLUTION

    def __truediv__(self, other):
        ### BEGIN SOLUTION
        return self.tape.record("div", [self, other])
        ### END SOLUTION

    def __rtruediv__(self, other):
        ### BEGIN SOLUTION
        return self.tape.record("div", [other, self])
        ### END SOLUTION

    def __neg__(self):
        ### BEGIN SOLUTION
        return self.tape.record("neg", [self])
        ### END SOLUTION

    def sq(self):
        ### BEGIN SOLUTION
        return self.tape.record("sq", [self])
        ### END SOLUTION

    def tanh(self):
        ### BEGIN SOLUTION
        return self.tape.record("tanh", [self])
        ### END SOLUTION

    def relu(self):
        ### BEGIN SOLUTION
        return self.tape.record("relu", [self])
        ### END SOLUTION


def trace(fn, leaves):
    """Run ``fn`` on a fresh tape and return ``(graph, values, output)``.

    ``fn`` is called with one leaf Var per entry of the dict ``leaves``, as
    keyword arguments (``fn(x=<Var x>, y=<Var y>)``). ``output`` is the name of
    the Var that ``fn`` returns; anything else than a Var of this tape raises
    ValueError. Two calls share nothing, and ``leaves`` is not modified.
    """
    ### BEGIN SOLUTION
    tape = Tape()  # a fresh record for this call
    out = fn(**{name: tape.leaf(name, value) for name, value in leaves.items()})
    if not isinstance(out, Var) or out.tape is not tape:
        raise ValueError(f"the traced function should return a Var of its own tape, but returned {out!r}")
    return tape.graph, tape.values, out.name
    ### END SOLUTION


def tree_size(graph, output):
    """The number of nodes of the expression tree that writes ``output`` out with no sharing.

    A leaf or constant counts 1; a node counts 1 plus the tree size of each
    input, once per read (``mul x x`` counts x twice). The result is an exact
    int, however large. One pass over ``graph``, no recursion.
    """
    ### BEGIN SOLUTION
    size = {}
    for name, _op, inputs in graph:
        size[name] = 1 + sum(size.get(i, 1) for i in inputs)
    return size.get(output, 1)
    ### END SOLUTION
