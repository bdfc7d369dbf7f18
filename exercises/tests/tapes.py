"""Helpers for the public tests of lesson 3 (exercises/tape.py): random programs, what their tape should hold,
a small forward pass to compare against, and an assertion that names the first wrong entry."""

import math
import operator

from hypothesis import assume
from hypothesis import strategies as st

# The lesson-1 forward rules, so these tests need none of your lesson-1 code.
FORWARD = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "div": operator.truediv,
    "sq": lambda a: a * a,
    "tanh": math.tanh,
    "relu": lambda a: a if a > 0 else 0.0,
    "neg": operator.neg,
}
# The same ops written the way a program writes them on Vars (or on numbers).
APPLY = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "div": operator.truediv,
    "neg": operator.neg,
    "sq": lambda v: v.sq(),
    "tanh": lambda v: v.tanh(),
    "relu": lambda v: v.relu(),
}
BINARY = ("add", "sub", "mul", "div")
UNARY = ("neg", "sq", "tanh", "relu")
CONSTANTS = (2, 3, 0.5, -1.5)


def evaluate(graph, leaves):
    """Lesson 1's forward pass: the value of every leaf and node."""
    values = dict(leaves)
    for name, op, inputs in graph:
        values[name] = FORWARD[op](*(values[i] for i in inputs))
    return values


@st.composite
def programs(draw, max_leaves=3, max_steps=8, constants=True):
    """Draw ``(steps, leaves)``: a straight-line program over Vars.

    Each step is ``(op, operands)``; an operand is the name of a leaf (``x0``...), the name of an
    earlier step's result (step k is ``t<k>``) or, when ``constants``, a plain number. A binary step
    always has at least one Var operand. Names repeat, so values are shared and read twice.
    """
    leaves = {f"x{i}": draw(st.sampled_from([-1.5, -0.5, 0.25, 1, 2])) for i in range(draw(st.integers(1, max_leaves)))}
    names, steps = list(leaves), []
    for k in range(draw(st.integers(1, max_steps))):
        op = draw(st.sampled_from(BINARY + UNARY))
        arity = 2 if op in BINARY else 1
        operands = [draw(st.sampled_from(names)) for _ in range(arity)]
        if constants and arity == 2:
            side = draw(st.sampled_from(["none", "left", "right"]))
            if side != "none":
                operands[0 if side == "left" else 1] = draw(st.sampled_from(CONSTANTS))
        steps.append((op, operands))
        names.append(f"t{k}")
    expected_tape(steps, leaves)  # rejects programs that divide by zero or overflow
    return steps, leaves


def expected_tape(steps, leaves):
    """(graph, values) the tape of ``steps`` should hold: entries t<k>, constants k<j> one per use, left first."""
    graph, values, constants = [], dict(leaves), 0
    for k, (op, operands) in enumerate(steps):
        inputs = []
        for operand in operands:
            if isinstance(operand, str):
                inputs.append(operand)
            else:
                inputs.append(f"k{constants}")
                values[f"k{constants}"] = operand
                constants += 1
        try:
            value = FORWARD[op](*(values[i] for i in inputs))
        except (ZeroDivisionError, OverflowError):
            assume(False)
        assume(math.isfinite(value) and abs(value) < 1e6)
        values[f"t{k}"] = value
        graph.append((f"t{k}", op, inputs))
    return graph, values


def run(steps, variables):
    """Run ``steps`` on Vars: ``variables`` maps each leaf name to its Var. Returns the last result."""
    env = dict(variables)
    result = None
    for k, (op, operands) in enumerate(steps):
        result = APPLY[op](*(env[o] if isinstance(o, str) else o for o in operands))
        env[f"t{k}"] = result
    return result


def show(steps):
    """A program's steps as the code that runs them, for messages."""
    lines = []
    for k, (op, operands) in enumerate(steps):
        text = [o if isinstance(o, str) else repr(o) for o in operands]
        symbol = {"add": "+", "sub": "-", "mul": "*", "div": "/"}.get(op)
        if symbol:
            lines.append(f"t{k} = {text[0]} {symbol} {text[1]}")
        elif op == "neg":
            lines.append(f"t{k} = -{text[0]}")
        else:
            lines.append(f"t{k} = {text[0]}.{op}()")
    return "; ".join(lines)


def assert_graph(got, want, what):
    """Check a tape's graph entry by entry, naming the first wrong one."""
    assert isinstance(got, list), f"{what}: the graph should be a list of (name, op, inputs), but it is {type(got).__name__}: {got!r}"
    for k, want_entry in enumerate(want):
        assert k < len(got), f"{what}: the graph has {len(got)} entries, expected {len(want)}: entry {k} {want_entry} is missing"
        entry = got[k]
        assert isinstance(entry, (tuple, list)) and len(entry) == 3, f"{what}: entry {k} should be (name, op, inputs), got {entry!r}"
        name, op, inputs = entry
        assert (name, op, list(inputs)) == want_entry, f"{what}: entry {k} should be {want_entry}, got {tuple(entry)}"
    assert len(got) == len(want), (
        f"{what}: the graph has {len(got)} entries, expected {len(want)} (one per operation); the first extra one is {got[len(want)]!r}"
    )


def assert_same_values(got, want, what):
    """Check a values dict exactly: the same names, and the same numbers as the forward rules give."""
    assert isinstance(got, dict), f"{what}: values should be a dict, but it is {type(got).__name__}: {got!r}"
    missing = [name for name in want if name not in got]
    assert not missing, f"{what}: values has no entry for {missing[0]!r} (it has {sorted(got)})"
    extra = sorted(set(got) - set(want))
    assert not extra, f"{what}: values has unexpected entries {extra}"
    for name, value in want.items():
        assert got[name] == value, f"{what}: values[{name!r}] should be {value!r}, got {got[name]!r}"
