"""Public tests for trace(fn, leaves): one run of fn on a fresh tape, as (graph, values, output)."""

import pytest
from hypothesis import given, strategies as st

from exercises import bounds
from exercises.tests.tapes import (
    FIXED_IDS,
    FIXED_PROGRAMS,
    assert_evaluate_gives_back,
    assert_graph,
    assert_records_the_program,
    assert_same_values,
    programs,
    run,
    show,
)

pytestmark = pytest.mark.task_trace
MODULE = "tape"


def diamond(x):
    a = x * x
    t = a + a
    return t * t


def test_trace_of_the_diamond(impl):
    """trace(diamond, {"x": 2}): three entries, the values of the run, and the output's name."""
    graph, values, output = impl.trace(diamond, {"x": 2})
    assert_graph(
        graph, [("t0", "mul", ["x", "x"]), ("t1", "add", ["t0", "t0"]), ("t2", "mul", ["t1", "t1"])], "trace(diamond)"
    )
    assert_same_values(values, {"x": 2, "t0": 4, "t1": 8, "t2": 64}, "trace(diamond)")
    assert output == "t2", (
        f"trace(diamond): the output should be 't2', the name of the Var diamond returns, got {output!r}"
    )


def test_leaves_come_as_keyword_arguments(impl):
    """fn gets one leaf Var per entry of leaves, by name: fn(*, c, a, b) works whatever the order."""

    def fn(*, c, a, b):
        return a * b - c

    graph, values, output = impl.trace(fn, {"a": 2.0, "b": 3.0, "c": 1.0})
    assert_graph(graph, [("t0", "mul", ["a", "b"]), ("t1", "sub", ["t0", "c"])], "trace(a * b - c)")
    assert values[output] == 5.0, (
        f"trace(a * b - c) at a=2, b=3, c=1: the output's value should be 5.0, got {values[output]!r}"
    )


def test_an_unused_leaf_is_still_on_the_tape(impl):
    """A leaf fn never reads is still one of the trace's values."""
    graph, values, output = impl.trace(lambda x, unused: -x, {"x": 1.5, "unused": 7.0})
    assert_same_values(values, {"x": 1.5, "unused": 7.0, "t0": -1.5}, "trace(-x) with an unused leaf")


def test_fn_may_return_a_leaf(impl):
    """fn returning its own leaf records nothing: the output is the leaf."""
    graph, values, output = impl.trace(lambda x: x, {"x": 3})
    assert (graph, values, output) == ([], {"x": 3}, "x"), (
        f"trace(lambda x: x, {{'x': 3}}) gave {(graph, values, output)!r}"
    )


def test_every_call_starts_a_fresh_tape(impl):
    """Two traces share nothing: names start again at t0, and the first result is left as it was."""
    first = impl.trace(diamond, {"x": 2})
    first_graph = list(first[0])
    second = impl.trace(lambda y: y + 1, {"y": 5})
    assert_graph(second[0], [("t0", "add", ["y", "k0"])], "the second of two traces")
    assert_same_values(second[1], {"y": 5, "k0": 1, "t0": 6}, "the second of two traces")
    assert first[0] == first_graph, f"tracing again changed the first trace's graph: it is now {first[0]!r}"


def test_the_output_is_the_var_fn_returns_not_the_last_entry(impl):
    """fn may compute more after the value it returns: the output names the returned Var, t0, not the last entry t1."""

    def fn(x):
        y = x * x
        y + 1  # recorded, but not returned
        return y

    graph, values, output = impl.trace(fn, {"x": 3.0})
    assert_graph(graph, [("t0", "mul", ["x", "x"]), ("t1", "add", ["t0", "k0"])], "trace(y = x * x; y + 1; return y)")
    assert output == "t0", (
        f"trace(y = x * x; y + 1; return y): the output should be 't0', the Var fn returns, got {output!r}"
    )


def test_a_result_that_is_not_a_var_raises(impl):
    """fn returning a plain number raises ValueError."""
    with pytest.raises(ValueError):
        impl.trace(lambda x: 3.0, {"x": 1.0})


def test_a_var_of_another_tape_raises(impl):
    """fn returning a Var that belongs to some other tape raises ValueError."""
    elsewhere = impl.Tape().leaf("x", 1.0)
    with pytest.raises(ValueError):
        impl.trace(lambda x: elsewhere, {"x": 1.0})


def test_leaves_are_not_modified(impl):
    leaves = {"x": 2}
    impl.trace(diamond, leaves)
    assert leaves == {"x": 2}, f"trace changed the caller's leaves dict: it is now {leaves!r}"


def test_a_loop_is_unrolled(impl):
    """A Python loop runs five times, so the tape has five entries, one after the other: the graph has no cycle."""

    def power(x):
        y = x
        for _ in range(4):
            y = y * x
        return y.relu()

    graph, values, output = impl.trace(power, {"x": 2})
    want = [
        ("t0", "mul", ["x", "x"]),
        ("t1", "mul", ["t0", "x"]),
        ("t2", "mul", ["t1", "x"]),
        ("t3", "mul", ["t2", "x"]),
        ("t4", "relu", ["t3"]),
    ]
    assert_graph(graph, want, "trace(x**5 by a loop, then relu)")
    assert values[output] == 32, f"x**5 at x = 2 should be 32, got {values[output]!r}"


def test_a_branch_gives_different_traces(impl):
    """A branch on a value records only the side that ran, so inputs on either side give different graphs."""

    def absolute(x):
        if x.value >= 0:
            return x * 1
        return -x

    above, _values, _out = impl.trace(absolute, {"x": 2.0})
    below, _values, _out = impl.trace(absolute, {"x": -2.0})
    assert_graph(above, [("t0", "mul", ["x", "k0"])], "trace(absolute) at x = 2")
    assert_graph(below, [("t0", "neg", ["x"])], "trace(absolute) at x = -2")


def test_a_deep_chain_of_10000_operations(impl):
    """A chain of 10,000 operations is traced: 10,000 entries, each reading the one before."""

    def chain(x):
        for _ in range(10_000):
            x = -x
        return x

    stand_in = [("t", "neg", ["x"])] * 10_000  # as long as the trace: what one pass over it costs bounds the time
    graph, values, output = bounds.bounded(
        lambda: impl.trace(chain, {"x": 1.0}), stand_in, "trace", "trace of a chain of 10,000 negations"
    )
    assert len(graph) == 10_000, f"a chain of 10,000 negations should give 10,000 entries, got {len(graph)}"
    assert graph[-1][0] == output == "t9999" and list(graph[-1][2]) == ["t9998"], (
        f"the last entry should be ('t9999', 'neg', ['t9998']), got {graph[-1]!r}"
    )
    assert values[output] == 1.0, f"an even number of negations gives back x = 1.0, got {values[output]!r}"


@pytest.mark.parametrize("source, fn, leaves, want_graph, want_values", FIXED_PROGRAMS, ids=FIXED_IDS)
def test_small_programs_trace_to_the_tape_written_out_by_hand(impl, source, fn, leaves, want_graph, want_values):
    """trace of small programs mixing every op, numbers on either side and values read several times."""
    graph, values, output = impl.trace(fn, leaves)
    what = f"trace of {source} at {leaves}"
    assert_graph(graph, want_graph, what)
    assert_same_values(values, want_values, what)
    assert output == want_graph[-1][0], f"{what}: the output should be {want_graph[-1][0]!r}, got {output!r}"


@given(data=st.data())
def test_the_trace_agrees_with_evaluate(impl, earlier, data):
    """On random programs: one entry per operation, t0, t1, ... in order, each reading what its operation reads, and
    your lesson-1 evaluate of the traced graph, from the leaves and constants, gives back its values."""
    impl.trace(lambda x: -x, {"x": 1.0})  # before drawing anything: a task not written yet fails at once
    evaluate = earlier("graph", "evaluate")
    steps, leaves = data.draw(programs(), label="program")
    graph, values, output = impl.trace(lambda **variables: run(steps, variables), leaves)
    what = f"trace of {show(steps)} at {leaves}"
    assert_records_the_program(graph, values, steps, leaves, what)
    last = f"t{len(steps) - 1}"
    assert output == last, (
        f"{what}: the output should be {last!r}, the name of the Var the program returns, got {output!r}"
    )
    assert_evaluate_gives_back(evaluate, graph, values, what)
