# Your exercise. Replace each `raise NotImplementedError(...)` with your code;
# keep the names and signatures as they are. Run `make check` to test it.
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
        # YOUR CODE HERE
        raise NotImplementedError("task Tape: not written yet")

    def leaf(self, name, value):
        """Put a new leaf ``name`` holding ``value`` on the tape and return its Var.

        Raises ValueError if ``name`` is already on this tape.
        """
        # YOUR CODE HERE
        raise NotImplementedError("task Tape: not written yet")

    def record(self, op, operands):
        """Append one entry ``("t<k>", op, inputs)`` for ``op`` applied to ``operands`` and return its Var.

        The operands are Vars of this tape or numbers, left operand first. Each
        number becomes a new constant leaf ``k<j>``. A Var of another tape
        raises ValueError. (The operators of Var call this; it is a helper, not
        part of what is graded.)
        """
        # YOUR CODE HERE
        raise NotImplementedError("task Tape: not written yet")


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
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __radd__(self, other):  # other + self, when other is a number
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __sub__(self, other):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __rsub__(self, other):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __mul__(self, other):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __rmul__(self, other):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __truediv__(self, other):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __rtruediv__(self, other):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def __neg__(self):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def sq(self):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def tanh(self):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")

    def relu(self):
        # YOUR CODE HERE
        raise NotImplementedError("task Var: not written yet")


def trace(fn, leaves):
    """Run ``fn`` on a fresh tape and return ``(graph, values, output)``.

    ``fn`` is called with one leaf Var per entry of the dict ``leaves``, as
    keyword arguments (``fn(x=<Var x>, y=<Var y>)``). ``output`` is the name of
    the Var that ``fn`` returns; anything else than a Var of this tape raises
    ValueError. Two calls share nothing, and ``leaves`` is not modified.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task trace: not written yet")


def tree_size(graph, output):
    """The number of nodes of the expression tree that writes ``output`` out with no sharing.

    A leaf or constant counts 1; a node counts 1 plus the tree size of each
    input, once per read (``mul x x`` counts x twice). The result is an exact
    int, however large. One pass over ``graph``, no recursion.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task tree_size: not written yet")
