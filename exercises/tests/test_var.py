"""Public tests for the Var class: every operation appends one entry to its tape and returns a new Var."""

import math

import pytest
from hypothesis import given, strategies as st

from exercises.tests.tapes import (
    APPLY,
    FIXED_IDS,
    FIXED_PROGRAMS,
    SYMBOL,
    assert_graph,
    assert_records_the_program,
    assert_same_values,
    programs,
    run,
    show,
)

pytestmark = pytest.mark.task_Var
MODULE = "tape"

# What each op gives, worked out by hand: x <op> y at x = 3.0, y = 2.0; x <op> 4 and 4 <op> x at x = 3.0.
BINARY_VALUES = {"add": 5.0, "sub": 1.0, "mul": 6.0, "div": 1.5}
RIGHT_FOUR = {"add": 7.0, "sub": -1.0, "mul": 12.0, "div": 0.75}
LEFT_FOUR = {"add": 7.0, "sub": 1.0, "mul": 12.0, "div": 4 / 3}
# -x, x.sq(), x.tanh() and x.relu() at x = -0.5.
UNARY_VALUES = {"neg": 0.5, "sq": 0.25, "tanh": math.tanh(-0.5), "relu": 0.0}


def test_diamond_records_three_entries_with_shared_reads(impl):
    """x = 2, a = x*x, t = a + a, L = t*t: three entries, each reading one value twice; L is 64."""
    tape = impl.Tape()
    x = tape.leaf("x", 2)
    a = x * x
    t = a + a
    L = t * t
    want = [("t0", "mul", ["x", "x"]), ("t1", "add", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])]
    assert_graph(tape.graph, want, "the diamond's tape")
    assert_same_values(tape.values, {"x": 2, "t0": 4, "t1": 8, "t2": 64}, "the diamond's tape")
    assert [v.name for v in (a, t, L)] == ["t0", "t1", "t2"], (
        f"the Vars returned should be named t0, t1, t2, got {[v.name for v in (a, t, L)]}"
    )
    assert L.value == 64, f"L.value should be 64, got {L.value!r}"


@pytest.mark.parametrize("op", list(BINARY_VALUES))
def test_binary_op_of_two_vars(impl, op):
    """x <op> y records ("t0", op, ["x", "y"]): the left operand first."""
    tape = impl.Tape()
    out = APPLY[op](tape.leaf("x", 3.0), tape.leaf("y", 2.0))
    assert_graph(tape.graph, [("t0", op, ["x", "y"])], f"x {SYMBOL[op]} y")
    assert out.name == "t0" and out.value == BINARY_VALUES[op], (
        f"x {SYMBOL[op]} y at x = 3.0, y = 2.0 should return t0 holding {BINARY_VALUES[op]!r}; "
        f"it returned {out.name!r} holding {out.value!r}"
    )


@pytest.mark.parametrize("op", list(UNARY_VALUES))
def test_unary_op(impl, op):
    """-x, x.sq(), x.tanh() and x.relu() each record one entry reading x."""
    tape = impl.Tape()
    out = APPLY[op](tape.leaf("x", -0.5))
    what = "-x" if op == "neg" else f"x.{op}()"
    assert_graph(tape.graph, [("t0", op, ["x"])], what)
    assert out.value == UNARY_VALUES[op], f"{what} at x = -0.5 should hold {UNARY_VALUES[op]!r}, got {out.value!r}"


@pytest.mark.parametrize("op", list(RIGHT_FOUR))
def test_number_on_the_right_becomes_constant_k0(impl, op):
    """x <op> 4 records the number as the constant leaf k0, read second."""
    tape = impl.Tape()
    APPLY[op](tape.leaf("x", 3.0), 4)
    assert_graph(tape.graph, [("t0", op, ["x", "k0"])], f"x {SYMBOL[op]} 4")
    assert_same_values(tape.values, {"x": 3.0, "k0": 4, "t0": RIGHT_FOUR[op]}, f"x {SYMBOL[op]} 4 at x = 3.0")


@pytest.mark.parametrize("op", list(LEFT_FOUR))
def test_number_on_the_left_is_read_first(impl, op):
    """4 <op> x (Python calls x's reflected operator) records ("t0", op, ["k0", "x"])."""
    tape = impl.Tape()
    APPLY[op](4, tape.leaf("x", 3.0))
    assert_graph(tape.graph, [("t0", op, ["k0", "x"])], f"4 {SYMBOL[op]} x")
    assert_same_values(tape.values, {"x": 3.0, "k0": 4, "t0": LEFT_FOUR[op]}, f"4 {SYMBOL[op]} x at x = 3.0")


def test_each_use_of_a_number_is_its_own_constant(impl):
    """2 * x + 2 uses the number 2 twice: two constants, k0 and k1, numbered in the order they are used."""
    tape = impl.Tape()
    2 * tape.leaf("x", 5) + 2
    assert_graph(tape.graph, [("t0", "mul", ["k0", "x"]), ("t1", "add", ["t0", "k1"])], "2 * x + 2")
    assert_same_values(tape.values, {"x": 5, "k0": 2, "t0": 10, "k1": 2, "t1": 12}, "2 * x + 2")


def test_f_of_f_of_f_records_three_entries(impl):
    """f(u) = u*u applied three times: the tape has 3 entries, each reading the previous result twice."""

    def f(u):
        return u * u

    tape = impl.Tape()
    out = f(f(f(tape.leaf("w", 1.5))))
    assert_graph(
        tape.graph,
        [("t0", "mul", ["w", "w"]), ("t1", "mul", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])],
        "f(f(f(w))) with f(u) = u*u",
    )
    assert out.value == 1.5**8, f"f(f(f(1.5))) should be {1.5**8}, got {out.value!r}"


def test_vars_of_two_tapes_do_not_mix(impl):
    """An operation reading Vars of two different tapes raises ValueError."""
    x = impl.Tape().leaf("x", 1.0)
    y = impl.Tape().leaf("y", 2.0)
    with pytest.raises(ValueError):
        x + y


def test_a_var_value_is_the_recorded_one(impl):
    """Every Var's value is the value its tape records under its name."""
    tape = impl.Tape()
    x = tape.leaf("x", 0.75)
    made = [x * 3, (x - 1).relu(), (1 / x).tanh(), -(x.sq())]
    for v in made:
        assert v.value == tape.values[v.name], (
            f"{v.name}: the Var holds {v.value!r} but the tape records {tape.values[v.name]!r}"
        )


@pytest.mark.parametrize("source, fn, leaves, want_graph, want_values", FIXED_PROGRAMS, ids=FIXED_IDS)
def test_small_programs_record_the_tape_written_out_by_hand(impl, source, fn, leaves, want_graph, want_values):
    """Small programs mixing every op, numbers on either side and values read several times: the whole tape."""
    tape = impl.Tape()
    variables = {name: tape.leaf(name, value) for name, value in leaves.items()}
    out = fn(**variables)
    what = f"the program {source} at {leaves}"
    assert_graph(tape.graph, want_graph, what)
    assert_same_values(tape.values, want_values, what)
    assert out.name == want_graph[-1][0], f"{what}: the result should be named {want_graph[-1][0]!r}, got {out.name!r}"


@given(data=st.data())
def test_random_programs_record_one_entry_per_operation(impl, data):
    """A random straight-line program (numbers on either side, values read twice): one entry per operation, t0, t1, ...
    in order, each reading what its operation reads; every Var holds the value its tape records."""
    impl.Tape().leaf("x", 1.0) * 2  # before drawing anything: a class not written yet fails at once
    steps, leaves = data.draw(programs(), label="program")
    tape = impl.Tape()
    out = run(steps, {name: tape.leaf(name, value) for name, value in leaves.items()})
    what = f"the program {show(steps)} at {leaves}"
    assert_records_the_program(tape.graph, tape.values, steps, leaves, what)
    last = f"t{len(steps) - 1}"
    assert out.name == last, f"{what}: the last result should be named {last!r}, got {out.name!r}"
    assert out.value == tape.values[last], (
        f"{what}: the last result holds {out.value!r}, but its tape records {tape.values[last]!r}"
    )
