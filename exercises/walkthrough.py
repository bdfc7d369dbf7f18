"""What the clickable graph (exercises/graph_widget.py) does when a node is clicked: plain Python, no widget.

    walk = Forward(graph, {"a": 2, "b": 3}, OPS)
    walk.click("q")     # refused: q's input p has no value yet (a Said with ok False and the reason)
    walk.click("p")     # p = mul(2, 3) = 6; walk.order is now ["p"]

    sweep = Backward(graph, values)   # values as evaluate returns them
    sweep.click("L")    # L passes its gradient to its inputs, one contribution per edge
    sweep = Backward(graph, values, assign=True)   # each "+=" replaced by "=": see what goes wrong

Forward mode computes one node per click. A node is *ready* when each of its inputs has a
value; a click on a node that is not ready is refused with the first input that has none.
Backward mode passes one node's gradient on per click. A node may pass its gradient on
only once every node that reads it has passed on its own (then its gradient is complete);
a click on any other node is refused with a reader that has not. Each click records the
contribution sent along every edge, and what each input holds after it.

The three questions of lesson 1 on one graph (a node's immediate inputs, the value that
feeds two nodes, the number of edges) are judged here too, each with its reason.
"""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Said:
    """What a click or an answer gets back: right (or done) or not, and why, in one sentence."""

    ok: bool
    text: str


def number(value):
    """A value as a learner reads it: 6 rather than 6.0, four significant digits."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "?"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.4g}"


class Shape:
    """The names of a graph: its nodes in listed order, its leaves, who reads what."""

    def __init__(self, graph):
        self.graph = [(name, op, list(reads)) for name, op, reads in graph]
        self.nodes = [name for name, _op, _reads in self.graph]
        self.op = {name: op for name, op, _reads in self.graph}
        self.reads = {name: reads for name, _op, reads in self.graph}
        listed = set(self.nodes)
        self.leaves = list(dict.fromkeys(r for _n, _o, reads in self.graph for r in reads if r not in listed))
        self.readers = {name: [] for name in self.leaves + self.nodes}
        for name, _op, reads in self.graph:
            for source in dict.fromkeys(reads):
                self.readers[source].append(name)

    @property
    def names(self):
        return self.leaves + self.nodes

    def edge_count(self):
        return sum(len(reads) for reads in self.reads.values())


# ---------------------------------------------------------------- forward mode


class Forward:
    """Compute a graph one clicked node at a time, in any order the graph allows."""

    def __init__(self, graph, leaves, ops):
        self.shape = Shape(graph)
        missing = [leaf for leaf in self.shape.leaves if leaf not in leaves]
        if missing:
            raise ValueError(f"no value given for the leaf {missing[0]!r}")
        unknown = [op for op in self.shape.op.values() if op not in ops]
        if unknown:
            raise ValueError(f"the op {unknown[0]!r} is not in the table of ops")
        self.leaves, self.ops = dict(leaves), ops
        self.reset()

    def reset(self):
        self.values = {leaf: self.leaves[leaf] for leaf in self.shape.leaves}
        self.order = []

    def ready(self):
        """The nodes not computed yet whose inputs all have values, in listed order."""
        return [
            name
            for name in self.shape.nodes
            if name not in self.values and all(r in self.values for r in self.shape.reads[name])
        ]

    def done(self):
        return len(self.order) == len(self.shape.nodes)

    def click(self, name):
        """Compute ``name`` if it is ready; else say why not. The Said's ok is True only for a computed node."""
        shape = self.shape
        if name not in shape.readers:
            return Said(False, f"{name!r} is not a name in this graph.")
        if name in shape.leaves:
            return Said(False, f"{name} is a leaf: its value ({number(self.values[name])}) is given, not computed.")
        if name in self.order:
            return Said(False, f"{name} has its value already ({number(self.values[name])}).")
        waiting = [r for r in shape.reads[name] if r not in self.values]
        if waiting:
            return Said(False, f"{name} is not ready: its input {waiting[0]} has no value yet.")
        inputs = [self.values[r] for r in shape.reads[name]]
        self.values[name] = self.ops[shape.op[name]](*inputs)
        self.order.append(name)
        said = f"{name} = {shape.op[name]}({', '.join(number(v) for v in inputs)}) = {number(self.values[name])}."
        if self.done():
            said += " Every node has its value: the order you clicked is one the graph allows."
        return Said(True, said)


# ---------------------------------------------------------------- the questions on one graph


def judge_inputs(shape, node, ticked):
    """Are the ticked names exactly the immediate inputs of ``node``? (A node read twice counts once.)"""
    want = list(dict.fromkeys(shape.reads[node]))
    extra = [name for name in ticked if name not in want]
    if extra:
        return Said(
            False,
            f"{extra[0]} has no arrow straight into {node}: a node's immediate inputs are the values "
            "it reads itself, nothing further back.",
        )
    if len(set(ticked)) < len(want):
        return Said(False, f"{node} reads {len(want)} values directly; tick each of them.")
    return Said(True, f"Right: {node} = {shape.op[node]}({', '.join(shape.reads[node])}) reads exactly these.")


def judge_fan_out(shape, name):
    """Is ``name`` read by two or more different nodes?"""
    readers = shape.readers.get(name)
    if readers is None:
        return Said(False, f"{name!r} is not a name in this graph.")
    if len(readers) >= 2:
        return Said(True, f"Right: {name} is read by {' and '.join(readers)}, so two arrows leave it.")
    said = f"only by {readers[0]}" if readers else "by no node"
    return Said(False, f"{name} is read {said}. Look for a value with arrows to two different nodes.")


def judge_edges(shape, count):
    """Is ``count`` the number of edges, one per name in each node's list of inputs?"""
    if isinstance(count, bool) or not isinstance(count, int):
        return Said(False, "Give a whole number.")
    if count == shape.edge_count():
        parts = ", ".join(f"{name} reads {len(shape.reads[name])}" for name in shape.nodes)
        return Said(True, f"Right: {parts}.")
    return Said(
        False,
        f"{count} is not the number of arrows. Count one for every name in every node's list of inputs, "
        "leaves included.",
    )


# ---------------------------------------------------------------- reverse mode


def local_slopes(op, inputs, out):
    """d(node)/d(input) for each input of one node, from its inputs' values and its own value."""
    if op == "add":
        return [1.0, 1.0]
    if op == "sub":
        return [1.0, -1.0]
    if op == "mul":
        left, right = inputs
        return [right, left]
    if op == "sq":
        return [2.0 * inputs[0]]
    if op == "neg":
        return [-1.0]
    if op == "tanh":
        return [1.0 - out**2]
    raise ValueError(f"the clickable sweep knows no slope for the op {op!r}")


@dataclass(frozen=True)
class Sent:
    """One contribution: along the edge source -> target (the reading-th read of source by target)."""

    source: str
    target: str
    grad: float  # the target's gradient when it passed it on
    slope: float  # d(target)/d(source) along this edge
    value: float  # grad * slope, what travels along the edge


class Backward:
    """The backward sweep, one clicked node at a time; with ``assign``, each arrival replaces instead of adding."""

    def __init__(self, graph, values, output=None, assign=False):
        self.shape = Shape(graph)
        for _name, op, reads in self.shape.graph:
            local_slopes(op, [1.0] * len(reads), 1.0)  # an op with no slope here is refused now, not at a click
        self.values = dict(values)
        self.output = output if output is not None else self.shape.nodes[-1]
        self.assign = assign
        self.reset()

    def reset(self):
        self.grads = {self.output: 1.0}
        self.passed = []  # the nodes that passed their gradient on, in click order
        self.sent = []  # every Sent, in the order it travelled
        self.received = {name: [] for name in self.shape.names}  # name: the Sent that arrived there

    def complete(self, name):
        """Has every node that reads ``name`` passed its gradient on (so ``name``'s gradient will not change)?"""
        return name == self.output or all(r in self.passed for r in self.shape.readers[name])

    def ready(self):
        """The nodes that may pass their gradient on now, in listed order."""
        return [n for n in self.shape.nodes if n not in self.passed and self.complete(n)]

    def done(self):
        return not self.ready()

    def click(self, name):
        """Pass ``name``'s gradient to its inputs if the sweep allows it now; else say why not."""
        shape = self.shape
        if name not in shape.readers:
            return Said(False, f"{name!r} is not a name in this graph.")
        if name in self.passed:
            return Said(False, f"{name} has passed its gradient on already.")
        if name in shape.leaves:
            return Said(False, f"{name} is a leaf: it only receives, it has no inputs to pass a gradient to.")
        if not self.complete(name):
            waiting = [r for r in shape.readers[name] if r not in self.passed]
            return Said(
                False,
                f"{name}'s gradient is not complete: {waiting[0]} reads {name} and has not sent its contribution yet.",
            )
        grad = self.grads.get(name, 0.0)
        reads = shape.reads[name]
        slopes = local_slopes(shape.op[name], [self.values[r] for r in reads], self.values[name])
        now = []
        for source, slope in zip(reads, slopes):
            sent = Sent(source, name, grad, slope, grad * slope)
            if self.assign:
                self.grads[source] = sent.value
            else:
                self.grads[source] = self.grads.get(source, 0.0) + sent.value
            self.received[source].append(sent)
            now.append(sent)
        self.sent += now
        self.passed.append(name)
        parts = []
        for source in dict.fromkeys(reads):
            arrived = [s for s in self.received[source] if s.target == name]
            terms = " and ".join(f"{number(s.grad)} · {number(s.slope)} = {number(s.value)}" for s in arrived)
            parts.append(f"{source} gets {terms}, so it holds {number(self.grads[source])}")
        return Said(True, f"{name} passes on its gradient {number(grad)}: " + "; ".join(parts) + ".")

    def sums(self):
        """{name: the text of what arrived there}: '8 + 8 = 16' when adding, '8, then 8: keeps 8' when assigning."""
        said = {}
        for name, arrived in self.received.items():
            if not arrived:
                continue
            terms = [number(s.value) for s in arrived]
            if len(terms) == 1:
                said[name] = terms[0]
            elif self.assign:
                said[name] = f"{', then '.join(terms)}: keeps {number(self.grads[name])}"
            else:
                said[name] = f"{' + '.join(terms)} = {number(self.grads[name])}"
        return said

    def sweep_order(self):
        """The names in the order the sweep finishes them: the nodes from last to first, then the leaves."""
        return list(reversed(self.shape.nodes)) + self.shape.leaves

    def right_grads(self):
        """The gradients a sweep that adds would give: what this sweep is compared with."""
        right = Backward(self.shape.graph, self.values, self.output)
        for name in reversed(self.shape.nodes):
            right.click(name)
        return right.grads

    def first_wrong(self):
        """The first name, in sweep order, whose complete gradient differs from the adding sweep's; or None."""
        right = self.right_grads()
        for name in self.sweep_order():
            if not self.complete(name):
                continue
            if not math.isclose(self.grads.get(name, 0.0), right.get(name, 0.0), rel_tol=1e-9, abs_tol=1e-12):
                return name
        return None
