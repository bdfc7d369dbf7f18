"""Helpers for the public tests of lesson 3 (exercises/tape.py): random straight-line programs, how to run and
show them, and assertions that name the first wrong entry.

Nothing here computes what a tape should hold. The tests write the expected entries out by hand for small
fixed programs, and on random programs they check properties that need no model: one entry per operation,
named t0, t1, ... in order, each reading what the program's step reads, and values that your own lesson-1
evaluate gives back.
"""

import math
import operator
import re

from hypothesis import strategies as st

# The ops written the way a program writes them on Vars.
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
SYMBOL = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
CONSTANTS = (2, 3, 0.5, -1.5)  # never 0, so dividing by one is safe
LEAF_VALUES = (-1.5, -0.5, 0.25, 1, 2)  # never 0 either
CONSTANT_NAME = re.compile(r"k\d+")


@st.composite
def programs(draw, max_leaves=3, max_steps=8, constants=True):
    """Draw ``(steps, leaves)``: a straight-line program over Vars.

    Each step is ``(op, operands)``; an operand is the name of a leaf (``x0``...), the name of an
    earlier step's result (step k is ``t<k>``) or, when ``constants``, a plain number. A binary step
    always has at least one Var operand. Names repeat, so values are shared and read twice. A divisor
    is always a leaf or a number, never 0, so no program divides by zero (and none overflows: eight
    steps from values this small stay far below the float range).
    """
    leaves = {f"x{n}": draw(st.sampled_from(LEAF_VALUES)) for n in range(draw(st.integers(1, max_leaves)))}
    names, steps = list(leaves), []
    for k in range(draw(st.integers(1, max_steps))):
        op = draw(st.sampled_from(BINARY + UNARY))
        operands = [draw(st.sampled_from(names))]
        if op in BINARY:
            operands.append(draw(st.sampled_from(list(leaves) if op == "div" else names)))
            side = draw(st.sampled_from(["none", "left", "right"])) if constants else "none"
            if side != "none":
                operands[0 if side == "left" else 1] = draw(st.sampled_from(CONSTANTS))
        steps.append((op, operands))
        names.append(f"t{k}")
    return steps, leaves


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
        if op in SYMBOL:
            lines.append(f"t{k} = {text[0]} {SYMBOL[op]} {text[1]}")
        elif op == "neg":
            lines.append(f"t{k} = -{text[0]}")
        else:
            lines.append(f"t{k} = {text[0]}.{op}()")
    return "; ".join(lines)


def assert_graph(got, want, what):
    """Check a tape's graph entry by entry against entries written out by hand, naming the first wrong one."""
    assert isinstance(got, list), (
        f"{what}: the graph should be a list of (name, op, inputs), but it is {type(got).__name__}: {got!r}"
    )
    for k, want_entry in enumerate(want):
        assert k < len(got), (
            f"{what}: the graph has {len(got)} entries, expected {len(want)}: entry {k} {want_entry} is missing"
        )
        entry = got[k]
        assert isinstance(entry, (tuple, list)) and len(entry) == 3, (
            f"{what}: entry {k} should be (name, op, inputs), got {entry!r}"
        )
        name, op, reads = entry
        assert (name, op, list(reads)) == want_entry, f"{what}: entry {k} should be {want_entry}, got {tuple(entry)}"
    assert len(got) == len(want), (
        f"{what}: the graph has {len(got)} entries, expected {len(want)} (one per operation); "
        f"the first extra one is {got[len(want)]!r}"
    )


def assert_same_values(got, want, what):
    """Check a values dict exactly: the same names, and the same numbers."""
    assert isinstance(got, dict), f"{what}: values should be a dict, but it is {type(got).__name__}: {got!r}"
    missing = [name for name in want if name not in got]
    assert not missing, f"{what}: values has no entry for {missing[0]!r} (it has {sorted(got)})"
    extra = sorted(set(got) - set(want))
    assert not extra, f"{what}: values has unexpected entries {extra}"
    for name, value in want.items():
        assert got[name] == value, f"{what}: values[{name!r}] should be {value!r}, got {got[name]!r}"


def assert_records_the_program(graph, values, steps, leaves, what):
    """Properties of the tape of ``steps`` that need no model of it.

    One entry per step, the k-th named t<k> with the step's op. Each input is what the step reads:
    a Var operand by its own name (a leaf, or an earlier t<k>), a number by a constant k<j> holding
    it that no earlier entry read, numbered k0, k1, ... in the order the numbers are used. values
    holds the leaves as given, the constants, and one value per entry, and nothing else.
    """
    assert isinstance(graph, list), (
        f"{what}: the graph should be a list of (name, op, inputs), but it is {type(graph).__name__}: {graph!r}"
    )
    assert isinstance(values, dict), f"{what}: values should be a dict, but it is {type(values).__name__}: {values!r}"
    assert len(graph) == len(steps), (
        f"{what}: the program runs {len(steps)} operations, so the graph should have {len(steps)} entries, one each; "
        f"it has {len(graph)}"
    )
    numbers_seen = 0
    for k, ((op, operands), entry) in enumerate(zip(steps, graph)):
        assert isinstance(entry, (tuple, list)) and len(entry) == 3, (
            f"{what}: entry {k} should be (name, op, inputs), got {entry!r}"
        )
        name, got_op, reads = entry
        assert name == f"t{k}", (
            f"{what}: entry {k} should be named 't{k}' (entries are t0, t1, ... in the order they ran), got {name!r}"
        )
        assert got_op == op, f"{what}: entry {k} records the operation t{k} of the program, {op!r}, but says {got_op!r}"
        reads = list(reads)
        assert len(reads) == len(operands), f"{what}: entry {k} ({op}) should read {len(operands)} name(s), got {reads}"
        for side, (operand, read) in enumerate(zip(operands, reads)):
            which = (
                "its only operand" if len(operands) == 1 else ("the left operand" if side == 0 else "the right operand")
            )
            if isinstance(operand, str):
                assert read == operand, (
                    f"{what}: entry {k} should read {which} by its name {operand!r}, got {read!r} (inputs {reads})"
                )
            else:
                constant = f"k{numbers_seen}"
                assert read == constant, (
                    f"{what}: entry {k}: {which} is the number {operand!r}; "
                    f"numbers become constants k0, k1, ... in the order they are used, one per use, "
                    f"so it should be read as {constant!r}; got {read!r} (inputs {reads})"
                )
                assert CONSTANT_NAME.fullmatch(read) and values.get(read) == operand, (
                    f"{what}: the constant {read!r} should hold {operand!r}, "
                    f"but values has {values.get(read, '(nothing)')!r}"
                )
                numbers_seen += 1
    want_names = set(leaves) | {f"k{j}" for j in range(numbers_seen)} | {f"t{k}" for k in range(len(steps))}
    missing, extra = sorted(want_names - set(values)), sorted(set(values) - want_names)
    assert not missing, f"{what}: values has no entry for {missing}"
    assert not extra, f"{what}: values has unexpected entries {extra} (only leaves, constants k<j> and entries t<k>)"
    changed = {name: values[name] for name, value in leaves.items() if values[name] != value}
    assert not changed, f"{what}: the leaves should keep their values {leaves}, but values has {changed}"


def assert_evaluate_gives_back(evaluate, graph, values, what):
    """Lesson 1's evaluate (yours), run on the graph from the leaves and constants, gives back exactly ``values``."""
    nodes = {entry[0] for entry in graph}
    start = {name: value for name, value in values.items() if name not in nodes}
    computed = evaluate(graph, start)
    assert isinstance(computed, dict), (
        f"{what}: your evaluate returned {type(computed).__name__}, not a dict: {computed!r}"
    )
    for name, value in values.items():
        assert name in computed and computed[name] == value, (
            f"{what}: the tape holds {name!r} = {value!r}, but your evaluate(graph, leaves and constants) gives "
            f"{computed.get(name, '(nothing)')!r} for it"
        )
    extra = sorted(set(computed) - set(values))
    assert not extra, f"{what}: your evaluate(graph, leaves and constants) gives names the tape's values lack: {extra}"


# Small fixed programs, each with its tape written out by hand: (source, fn, leaves, graph, values).
# fn takes one Var per leaf, by name. The values are chosen so that every number is exact.
def _mixed(x, y):
    a = 3 * x - y
    b = a / 2 + x.sq()
    return -(b.relu())


def _reflected(x):
    return 1 - 2 / (0.5 + 4 * x)


def _shared(w, b):
    h = (w * b).tanh()
    return h * h + h / b


def _unary(x):
    return (-x).relu().sq().tanh()


_H = math.tanh(1.0)  # h in _shared, at w = 0.5, b = 2

FIXED_PROGRAMS = [
    (
        "a = 3 * x - y; b = a / 2 + x.sq(); return -(b.relu())",
        _mixed,
        {"x": 2, "y": 1},
        [
            ("t0", "mul", ["k0", "x"]),
            ("t1", "sub", ["t0", "y"]),
            ("t2", "div", ["t1", "k1"]),
            ("t3", "sq", ["x"]),
            ("t4", "add", ["t2", "t3"]),
            ("t5", "relu", ["t4"]),
            ("t6", "neg", ["t5"]),
        ],
        {"x": 2, "y": 1, "k0": 3, "t0": 6, "t1": 5, "k1": 2, "t2": 2.5, "t3": 4, "t4": 6.5, "t5": 6.5, "t6": -6.5},
    ),
    # Python runs 4 * x first and 1 - ... last, so the constants are numbered from the inside out.
    (
        "return 1 - 2 / (0.5 + 4 * x)",
        _reflected,
        {"x": 1.875},
        [
            ("t0", "mul", ["k0", "x"]),
            ("t1", "add", ["k1", "t0"]),
            ("t2", "div", ["k2", "t1"]),
            ("t3", "sub", ["k3", "t2"]),
        ],
        {"x": 1.875, "k0": 4, "t0": 7.5, "k1": 0.5, "t1": 8.0, "k2": 2, "t2": 0.25, "k3": 1, "t3": 0.75},
    ),
    (
        "h = (w * b).tanh(); return h * h + h / b",
        _shared,
        {"w": 0.5, "b": 2},
        [
            ("t0", "mul", ["w", "b"]),
            ("t1", "tanh", ["t0"]),
            ("t2", "mul", ["t1", "t1"]),
            ("t3", "div", ["t1", "b"]),
            ("t4", "add", ["t2", "t3"]),
        ],
        {"w": 0.5, "b": 2, "t0": 1.0, "t1": _H, "t2": _H * _H, "t3": _H / 2, "t4": _H * _H + _H / 2},
    ),
    (
        "return (-x).relu().sq().tanh()",
        _unary,
        {"x": -1.5},
        [("t0", "neg", ["x"]), ("t1", "relu", ["t0"]), ("t2", "sq", ["t1"]), ("t3", "tanh", ["t2"])],
        {"x": -1.5, "t0": 1.5, "t1": 1.5, "t2": 2.25, "t3": math.tanh(2.25)},
    ),
]
FIXED_IDS = ["mixed", "reflected", "shared", "unary"]
