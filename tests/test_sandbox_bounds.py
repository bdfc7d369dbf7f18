"""Bounds on the trusted process, and the shortcuts that make grading fast without trusting the child more.

Learner code in each test is a short source run in the real sandbox: it writes frames straight
into the reply pipe (found as sys.argv[2] of the child), sleeps, or burns CPU in forks. Nothing
here asserts a time: speed is `make bench`'s business.
"""

import ast
import copy
import json
import sys
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

from autograder.course import active
from autograder.course.lessons import module_of
from autograder.grading.measured import SLOW_MARGIN, SLOW_SLACK
from autograder.grading.reading import read
from autograder.grading.runner import Runner, drawn_examples, grade
from autograder.grading.submission import MAX_CELLS, Chunk, Submission, SubmissionError
from autograder.grading.worked_out import reference_seconds
from autograder.sandbox import cgroups, patience
from autograder.sandbox.limits import Limits
from autograder.sandbox.measure import tree_cpu_seconds
from autograder.sandbox.program import CHILD, child_script
from autograder.sandbox.sandbox import Sandbox
from exercises import strategies
from graphcourse import builders, checks as check_table, zoo
from graphcourse.checks import as_json_graph
from graphcourse.judges import ANCHORED, JUDGES, NUMBER_ANSWERS, anchor, anchor_answer, reference_answer
from solutions import graph as reference
from tests.conftest import REFERENCE_SOURCE

SMALL_GRAPH = [["p", "mul", ["a", "b"]], ["z", "add", ["p", "c"]]]
SMALL_VALUES = {"a": 2.0, "b": 3.0, "c": 1.0, "p": 6.0, "z": 7.0}

FRAMES = '''
import os, struct, sys

REPLY = int(sys.argv[2])


def frame(body, nonce=bytes(32)):
    """Write one frame as the child does: length, nonce, body (the default nonce belongs to no request)."""
    view = memoryview(struct.pack(">Q", len(body)) + nonce + body)
    while view:
        view = view[os.write(REPLY, view):]


def current_nonce():
    """The nonce of the request being answered, from the child's own frames."""
    frame_ = sys._getframe(1)
    while frame_ is not None:
        value = frame_.f_locals.get("nonce")
        if isinstance(value, bytes) and len(value) == 32:
            return value
        frame_ = frame_.f_back
    raise LookupError("no nonce")
'''


def sandbox_of(source, limits=Limits()):
    return Sandbox([Chunk("test", source)], limits)


# ---------------------------------------------------------------- the reply pipe
def test_a_stray_frame_is_skipped_without_being_read_into_memory():
    """A 60 MB frame without the request's nonce costs the parent a bounded buffer, not its size (or gigabytes
    decoded)."""
    source = (
        FRAMES
        + """
def users_of(graph, name):
    frame(b'{"status": "ok", "value": [' + b"0.125," * 10_000_000 + b'0.125]}')
    return [node for node, _op, inputs in graph if name in inputs]
"""
    )
    with sandbox_of(source) as sandbox:
        assert sandbox.variable("REPLY")["status"] == "ok"  # child started and code loaded before measuring
        tracemalloc.start()
        try:
            reply = sandbox.call("users_of", [SMALL_GRAPH, "p"])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert reply["status"] == "ok" and reply["value"] == ["z"]
    assert peak < 8 << 20, f"the parent held {peak} bytes while skipping a 60 MB stray frame"


@pytest.mark.parametrize("tied", [True, False], ids=["with the nonce", "stray"])
def test_an_oversized_frame_is_refused_by_its_length(tied):
    """A header announcing more than Limits.message_bytes fails the call at once: its body is never waited for."""
    source = (
        FRAMES
        + f"""
import time


def users_of(graph, name):
    nonce = current_nonce() if {tied!r} else bytes(32)
    os.write(REPLY, struct.pack(">Q", 1 << 40) + nonce)
    time.sleep(3600)
"""
    )
    with sandbox_of(source, Limits(call_seconds=30)) as sandbox:
        reply = sandbox.call("users_of", [SMALL_GRAPH, "p"])
        after = sandbox.call("inputs_of", [SMALL_GRAPH, "p"])
    assert reply["status"] == "invalid" and "limit" in reply["reason"], reply
    assert reply["wall_seconds"] < 30, "the parent waited for a body it should have refused"
    assert after["status"] == "missing", "a fresh child answers the next call"


def test_a_frame_with_the_nonce_but_no_json_is_invalid():
    source = (
        FRAMES
        + """
def users_of(graph, name):
    frame(b"[not json", current_nonce())
    return []
"""
    )
    with sandbox_of(source) as sandbox:
        reply = sandbox.call("users_of", [SMALL_GRAPH, "p"])
    assert reply["status"] == "invalid"


@pytest.mark.slow
def test_a_child_that_stops_reading_cannot_block_the_parent():
    """A forged answer, then no more reading: the next request, far larger than a pipe holds, times out instead of
    blocking."""
    source = (
        FRAMES
        + """
import time


def users_of(graph, name):
    frame(b'{"status": "ok", "value": []}', current_nonce())
    time.sleep(3600)


def inputs_of(graph, name):
    return []
"""
    )
    large = [[f"n{i}", "neg", [f"n{i - 1}"]] for i in range(1, 50_000)]
    with sandbox_of(source, Limits(call_seconds=2)) as sandbox:
        forged = sandbox.call("users_of", [SMALL_GRAPH, "p"])
        blocked = sandbox.call("inputs_of", [large, "n1"])
        fresh = sandbox.call("inputs_of", [SMALL_GRAPH, "p"])
    assert forged["status"] == "ok" and forged["value"] == []
    assert blocked["status"] == "timeout"
    assert fresh["status"] == "ok" and sandbox.restarts == 2


# ---------------------------------------------------------------- answers sent as a list of numbers
def test_backward_answers_come_back_as_the_same_dict():
    """A dict keyed like the call's values comes back as its numbers alone; the parent rebuilds it with its own
    names."""
    with sandbox_of(REFERENCE_SOURCE) as sandbox:
        reply = sandbox.call("backward", [SMALL_GRAPH, SMALL_VALUES])
        reordered = sandbox.call("evaluate", [SMALL_GRAPH, {"c": 1.0, "b": 3.0, "a": 2.0}])
    want = reference.backward([tuple(node) for node in SMALL_GRAPH], SMALL_VALUES)
    assert reply["status"] == "ok" and reply["value"] == want
    assert list(reply["value"]) == list(SMALL_VALUES) and all(type(v) is float for v in reply["value"].values())
    assert reordered["value"] == {"c": 1.0, "b": 3.0, "a": 2.0, "p": 6.0, "z": 7.0}


@pytest.mark.parametrize(
    "values",
    [
        "[1.0, 2.0]",
        "[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]",
        "[true, 1.0, 1.0, 1.0, 1.0]",
        '["1", 1.0, 1.0, 1.0, 1.0]',
        "[null, 1.0, 1.0, 1.0, 1.0]",
        "[[1.0], 1.0, 1.0, 1.0, 1.0]",
        '{"a": 1.0}',
    ],
    ids=["too few", "too many", "a bool", "a string", "null", "a list", "not a list"],
)
def test_a_forged_list_of_numbers_is_invalid(values):
    """Numbers in place of a dict must be exactly one int or float per name of the call's values."""
    source = (
        FRAMES
        + f"""
def backward(graph, values, output=None):
    frame(b'{{"status": "ok", "values": ' + {values!r}.encode() + b'}}', current_nonce())
    return {{}}
"""
    )
    with sandbox_of(source) as sandbox:
        reply = sandbox.call("backward", [SMALL_GRAPH, SMALL_VALUES])
    assert reply["status"] == "invalid", reply


@pytest.mark.parametrize(
    ("json_part", "length", "doubles"),
    [
        (b'{"status":"ok"}', None, "array.array('d', [1.0] * 4).tobytes()"),
        (b'{"status":"ok"}', None, "array.array('d', [1.0] * 5).tobytes()[:-3]"),
        (b'{"status":"ok"}', 99, "array.array('d', [1.0] * 5).tobytes()"),
        (b'{"status":"ok","values":[1.0,1.0,1.0,1.0,1.0]}', None, "array.array('d', [1.0] * 5).tobytes()"),
        (b'{"status":"ok"}', None, "array.array('d', [1.0] * 5).tobytes()[:5]"),
    ],
    ids=["too few doubles", "a cut double", "JSON longer than the body", "values twice", "no whole double"],
)
def test_a_forged_reply_of_doubles_is_invalid(json_part, length, doubles):
    """A reply of JSON then doubles must hold exactly one whole 8-byte double per name of the call's values."""
    source = (
        FRAMES
        + f"""
import array


def backward(graph, values, output=None):
    part = {json_part!r}
    frame(b"F" + ({length} or len(part)).to_bytes(8, "big") + part + {doubles}, current_nonce())
    return {{}}
"""
    )
    with sandbox_of(source) as sandbox:
        reply = sandbox.call("backward", [SMALL_GRAPH, SMALL_VALUES])
        after = sandbox.call("evaluate", [SMALL_GRAPH, SMALL_VALUES])
    assert reply["status"] == "invalid", reply
    assert after["status"] == "missing", "the next call is answered on its own (this code has no evaluate)"


def test_doubles_answer_only_a_call_with_a_values_dict():
    """A reply of doubles for a call without a dict of values has no names to give them: it is invalid."""
    source = (
        FRAMES
        + """
import array


def users_of(graph, name):
    frame(b'F' + (15).to_bytes(8, 'big') + b'{"status":"ok"}' + array.array('d', [1.0]).tobytes(), current_nonce())
    return []
"""
    )
    with sandbox_of(source) as sandbox:
        reply = sandbox.call("users_of", [SMALL_GRAPH, "a"])
    assert reply["status"] == "invalid", reply


def test_a_list_of_numbers_answers_only_a_call_with_a_values_dict():
    source = (
        FRAMES
        + """
def users_of(graph, name):
    frame(b'{"status": "ok", "values": [1.0, 2.0]}', current_nonce())
    return []
"""
    )
    with sandbox_of(source) as sandbox:
        reply = sandbox.call("users_of", [SMALL_GRAPH, "p"])
    assert reply["status"] == "invalid"


# ---------------------------------------------------------------- the time budget of a submission
SLEEPER = """
import time


def users_of(graph, name):
    time.sleep(1.0)
    return [node for node, _op, inputs in graph if name in inputs]


def inputs_of(graph, name):
    return []
"""


@pytest.fixture
def wall_clock(monkeypatch):
    """Deadlines that never yield to the machine's load (autograder/sandbox/patience.py): these tests hold the caps
    and the budget themselves, on a machine the suite keeps busy."""
    monkeypatch.setattr(patience, "PATIENCE", 1.0)


@pytest.mark.slow
def test_the_budget_ends_every_call_left(wall_clock):
    """Once a submission's calls have used Limits.submission_seconds, every later call fails at once, out of time."""
    limits = Limits(call_seconds=5, submission_seconds=2.5)
    with sandbox_of(SLEEPER, limits) as sandbox:
        replies = [sandbox.call("users_of", [SMALL_GRAPH, "p"]) for _ in range(5)]
        quick = sandbox.call("inputs_of", [SMALL_GRAPH, "p"])
    assert [r["status"] for r in replies] == ["ok", "ok", "out_of_time", "out_of_time", "out_of_time"]
    assert replies[2]["wall_seconds"] < 2.0, "the third call was cut off when the budget ran out, not at its own limit"
    assert quick["status"] == "out_of_time"
    assert sandbox.restarts == 1, "no child is started once the budget is spent"


@pytest.mark.slow
def test_out_of_time_checks_fail_with_a_clear_message(wall_clock):
    """Checks left when the budget runs out fail, each saying it is out of time, and grading ends soon after the
    budget."""
    limits = Limits(call_seconds=5, submission_seconds=2.5)
    every = check_table.all_checks()
    checks = [c for c in every if c.function == "users_of"] + [c for c in every if c.function == "inputs_of"]
    result = grade(Submission("sleeper", [Chunk("sleeper", SLEEPER)]), checks, limits)
    failures = [r.failure for r in result.results if r.failure]
    late = [f for f in failures if f.status == "out_of_time"]
    assert late and all(f.summary.startswith("out of time") for f in late)
    assert any(
        r.check.function == "inputs_of" and r.failure and r.failure.status == "out_of_time" for r in result.results
    )
    assert result.seconds < 10


@pytest.mark.slow
def test_the_budget_covers_loading(wall_clock):
    """Loading the code again after a crash spends the same budget: a module that sleeps at import cannot reset it."""
    source = """
import time
time.sleep(1.5)


def users_of(graph, name):
    import os
    os._exit(3)
"""
    limits = Limits(call_seconds=5, load_seconds=5, submission_seconds=2.5)
    with sandbox_of(source, limits) as sandbox:
        replies = [sandbox.call("users_of", [SMALL_GRAPH, "p"]) for _ in range(3)]
    assert [r["status"] for r in replies] == ["died", "out_of_time", "out_of_time"]
    assert sandbox.restarts == 2


@pytest.mark.slow
def test_a_hung_function_is_struck_within_the_budget(wall_clock):
    """A function that timed out once gets short limits afterwards; the budget still ends the submission."""
    source = "def backward(graph, values, output=None):\n    while True:\n        pass\n"
    checks = [c for c in check_table.all_checks() if c.function == "backward" and c.strategy is None][:4]
    limits = Limits(call_seconds=2, submission_seconds=4)
    result = grade(Submission("hang", [Chunk("hang", source)]), checks, limits)
    statuses = [r.failure.status for r in result.results]
    assert statuses[0] == "timeout" and "out_of_time" in statuses
    assert result.seconds < 8


@pytest.mark.slow
def test_a_call_stopped_under_a_short_cap_still_fails_linear_time(wall_clock):
    """With Limits.longest_call_seconds below linear_time's own limit, a call stopped for time fails, never passes:
    every lesson's timed check, on a hand-in whose timed functions never return."""
    timed = [c for c in check_table.all_checks() if c.expect == "linear_time"]
    source = "".join(
        f"def {function}(*args, **kwargs):\n    while True:\n        pass\n\n\n"
        for function in sorted({c.function for c in timed})
    )
    limits = [SLOW_MARGIN * reference_seconds(case) + SLOW_SLACK for c in timed for case in c.inputs()]  # timed first
    result = grade(Submission("hang", [Chunk("hang", source)]), timed, Limits(longest_call_seconds=0.3))
    assert [r.failure.status if r.failure else None for r in result.results] == ["slow"] * len(timed)
    # Under each check's own limit, the calls alone would take twice the limits together.
    assert result.seconds < sum(limits), "the cap ended the calls, not the checks' own limits"


# ---------------------------------------------------------------- CPU time of the whole process tree
BURN_IN_FORKS = """
import os, signal, time


def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def backward(graph, values, output=None):
    if IGNORE_CHILDREN:
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # exited children are reaped by the kernel, never waited for
    for _ in range(3):  # one after the other: where no cgroup caps the tree's memory, a child may fork only one
        pid = os.fork()
        if pid == 0:
            burn(0.2)
            os._exit(0)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    return {name: 0.0 for name in values}
"""


def test_cpu_burnt_in_exited_forks_counts():
    """CPU time spent in children that have exited (and were waited for) is part of the call's CPU time."""
    with sandbox_of("IGNORE_CHILDREN = False\n" + BURN_IN_FORKS) as sandbox:
        reply = sandbox.call("backward", [SMALL_GRAPH, SMALL_VALUES], measure_cpu=True)
    assert reply["status"] == "ok"
    assert reply["cpu_seconds"] >= 0.45, reply


@pytest.mark.skipif(cgroups.cgroup_base() is None, reason="no cgroup can be made here: CPU is read from /proc")
def test_cpu_of_children_nobody_waits_for_counts_through_the_cgroup():
    with sandbox_of("IGNORE_CHILDREN = True\n" + BURN_IN_FORKS) as sandbox:
        reply = sandbox.call("backward", [SMALL_GRAPH, SMALL_VALUES], measure_cpu=True)
    assert reply["status"] == "ok"
    assert reply["cpu_seconds"] >= 0.45, reply


def test_the_proc_reading_counts_waited_children(tmp_path):
    """Without a cgroup, /proc gives a process's own time plus that of the children it waited for."""
    import subprocess

    script = (
        "import os, sys, time\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    end = time.process_time() + 0.4\n"
        "    while time.process_time() < end: pass\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
        "print('done', flush=True)\n"
        "sys.stdin.read()\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "done"
        assert tree_cpu_seconds(proc.pid) >= 0.35
    finally:
        proc.stdin.close()
        proc.wait()


# ---------------------------------------------------------------- notebooks
def _notebook(cells):
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_a_notebook_with_too_many_cells_is_refused(tmp_path):
    """More than MAX_CELLS cells (markdown counts): a SubmissionError naming the file and what to do."""
    code = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": REFERENCE_SOURCE}
    note = {"cell_type": "markdown", "metadata": {}, "source": "."}
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(_notebook([code] + [note] * MAX_CELLS)), encoding="utf-8")
    with pytest.raises(SubmissionError) as err:
        read(path)
    assert str(path) in str(err.value) and f"{MAX_CELLS:,}" in str(err.value) and "delete" in str(err.value)
    path.write_text(json.dumps(_notebook([code] + [note] * (MAX_CELLS - 1))), encoding="utf-8")
    assert read(path).code.chunks


# ---------------------------------------------------------------- large inputs built by the child
def described_cases():
    return [
        case for check in check_table.all_checks() if check.strategy is None for case in check.inputs() if case.built
    ]


def test_there_is_a_described_case():
    assert described_cases(), "deep_graph's chain should be described, not sent"


@pytest.mark.slow
def test_a_described_case_builds_exactly_its_args():
    """The child builds, from the description, the very arguments the grader judges against (names, order, types)."""
    for case in described_cases():
        built = builders.build(case.built)
        if len(built) == 1:  # a whole argument list of one (records, not a graph): equal as JSON carries it
            assert json.loads(json.dumps(built)) == json.loads(json.dumps(list(case.args)))
            continue
        graph, values, *rest = built  # values: backward's, or another call's leaves
        assert as_json_graph(graph) == case.args[0]
        assert list(values.items()) == list(case.args[1].items())
        assert all(type(v) is type(case.args[1][k]) for k, v in values.items())
        assert tuple(rest) == tuple(case.args[2:])


@pytest.mark.parametrize("description", [{"shape": "chain", "length": 301}, {"shape": "wide", "width": 300}])
def test_builders_compute_values_as_the_reference_does(description):
    graph, values = builders.build(description)
    leaves = builders.SHAPES[description["shape"]](**{k: v for k, v in description.items() if k != "shape"})[1]
    want = reference.evaluate(graph, leaves)
    assert list(values.items()) == list(want.items())


def test_the_child_script_is_standard_library_only():
    """The course's builders.py imports nothing, child.py only the standard library: the child runs with -I -S in an
    empty root."""
    for path in (*active.child_parts(), CHILD):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        if path.name == "builders.py":
            assert not imported
        assert imported <= set(sys.stdlib_module_names), (path.name, imported)
    compile(child_script(), "child.py", "exec")


def child_codec():
    """The child's (dumps, loads), its two codec functions run here alone: the script reads its descriptors at once."""
    tree = ast.parse(CHILD.read_text(encoding="utf-8"))
    wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("_json_codec", "_json_package")]
    namespace = {}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "child.py", "exec"), namespace)
    return namespace["_json_codec"]()


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )
)
def test_the_child_writes_and_reads_json_as_the_json_package_does(value):
    """The child encodes with the C parts of json itself: every reply's text is what json.dumps(allow_nan=True) writes,
    NaN and infinities included, and it reads the grader's compact requests as json.loads does."""
    dumps, loads = child_codec()
    assert dumps({"value": value}) == json.dumps({"value": value}, allow_nan=True)
    sent = json.dumps({"value": value}, separators=(",", ":")).encode()
    assert json.dumps(loads(bytearray(sent))) == json.dumps(json.loads(sent))


def test_a_value_json_cannot_hold_is_refused_as_the_package_refuses_it():
    dumps, _loads = child_codec()
    for value, error in ((object(), TypeError), ({1j: 1}, TypeError)):
        with pytest.raises(error):
            dumps({"value": value})
    circular = []
    circular.append(circular)
    with pytest.raises(ValueError):
        dumps({"value": circular})


def test_a_described_call_answers_as_a_sent_one():
    """The reference answers a described chain exactly as it answers the same chain sent as JSON."""
    graph, values = builders.build({"shape": "chain", "length": 2000})
    args = [as_json_graph(graph), values]
    with sandbox_of(REFERENCE_SOURCE) as sandbox:
        built = sandbox.call("backward", args, built={"shape": "chain", "length": 2000})
        sent = sandbox.call("backward", args)
    assert built["status"] == sent["status"] == "ok" and built["value"] == sent["value"]


# ---------------------------------------------------------------- property examples drawn once
def test_examples_are_drawn_once_per_process():
    check = next(c for c in check_table.all_checks() if c.strategy is not None)
    first = drawn_examples(check)
    assert len(first) >= check.examples and drawn_examples(check) is first


PER_PROPERTY = 2  # buggy entries compared per property check


def _buggy_sources_per_property():
    """(check, entry name, source): for each property check of every lesson, PER_PROPERTY buggy entries of its
    function that fail its family, each failing a different set of families, and entries that no other check
    has used first (so the two random-graph checks of backward together take four entries). The zoo's own test
    grades every entry; here the replay is compared with a plain search once per entry and check."""
    used = set()
    for check in check_table.all_checks():
        if check.strategy is None:
            continue
        kinds = {}
        for entry in zoo.entries():
            if entry.kind == "buggy" and entry.function == check.function and check.family in entry.fails:
                kinds.setdefault(frozenset(entry.fails), entry)
        chosen = sorted(kinds.values(), key=lambda entry: entry.name in used)[:PER_PROPERTY]  # stable: zoo order
        used.update(entry.name for entry in chosen)
        for entry in chosen:
            yield check, entry.name, zoo.source(entry)


@pytest.mark.slow
def test_replay_then_shrink_reports_what_hypothesis_alone_reports():
    """For buggy entries the zoo fails on random inputs: replaying the drawn examples, and shrinking only on a
    wrong answer, ends on the same failure (summary, input) as a plain Hypothesis run, for each property check."""
    compared, checked = 0, set()
    for check, name, source in _buggy_sources_per_property():
        with sandbox_of(source) as sandbox:
            replayed = Runner(sandbox).run_property(check)
            failures = Runner(sandbox).search(check, JUDGES[check.expect])
        hard = [f for f in failures if f.status in ("timeout", "died")]
        alone = (hard[0] if hard else failures[-1]) if failures else None
        assert (replayed is None) == (alone is None), (name, check.id)
        if replayed is not None:
            assert replayed.summary == alone.summary and replayed.case.args == alone.case.args, (name, check.id)
            compared += 1
            checked.add(check.function)
    assert compared and "backward" in checked


def test_every_reference_answer_is_cached():
    case = check_table.all_checks()[0].inputs()[0]
    assert reference_answer(case) is reference_answer(case)


def _same_number(a, b):
    return repr(a) == repr(b)  # bit for bit, NaN and -0.0 included


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(strategies.graphs(max_leaves=3, max_nodes=8), st.data())
def test_the_anchor_answer_is_the_whole_answers_entry(drawn, data):
    """On any graph and output, the anchor's gradient from the sweep after it equals the whole sweep's, bit for bit."""
    graph, leaves = drawn
    try:
        reference.evaluate(graph, leaves)
    except (ZeroDivisionError, OverflowError, ValueError):
        return
    output = data.draw(st.sampled_from([None] + [name for name, _op, _inputs in graph]), label="output")
    case = check_table.backward_call(graph, leaves, output=output)
    assert _same_number(anchor_answer(case), reference_answer(case)[anchor(case)])


def test_every_anchored_case_is_answered_at_its_anchor_as_in_the_whole_answer():
    """The deep chain and the wide graph included: judge_returns's number is the whole answer's."""
    compared = 0
    for check in check_table.all_checks():
        if check.strategy is not None:
            continue
        for case in check.inputs():
            if (case.expect or check.expect) in ANCHORED and case.fn in NUMBER_ANSWERS:
                assert _same_number(anchor_answer(case), reference_answer(case)[anchor(case)]), (check.id, case.label)
                compared += 1
    assert compared >= 4


@pytest.mark.slow
def test_warming_leaves_nothing_for_a_forked_worker_to_work_out(monkeypatch):
    """After warm(), judging right answers to every fixed case that warm() works out (a case judged against the
    reference's whole answer or one entry of it, in any lesson) and warming again ask the reference nothing,
    draw no example and time nothing."""
    from autograder.grading import runner, worked_out
    from graphcourse import judges as compare

    runner.warm()
    warmed = {"reference", *ANCHORED}  # the judges work_out answers for; a family's own judges keep their own caches
    right = []  # (check, case, reply): the reference's own answers, worked out past the caches
    for check in check_table.all_checks():
        for case in [] if check.strategy is not None else worked_out.inputs(check):
            if (case.expect or check.expect) not in warmed:
                continue
            try:
                answer = compare._answer(case)
                right.append(
                    (check, case, {"status": "ok", "value": answer, "args_after": copy.deepcopy(list(case.args))})
                )
            except ValueError:  # a wrong-order case: its judge wants an error, and no answer
                pass
    assert {module_of(check.function) for check, _case, _reply in right} >= {"graph"}
    for function in {case.fn for _check, case, _reply in right}:  # what compare's answers call, looked up at each call
        monkeypatch.setattr(
            compare.reference_module(function), function, lambda *args, **kwargs: pytest.fail("the reference ran again")
        )
    monkeypatch.setattr(worked_out, "Sandbox", None)  # timing the reference again would need one
    monkeypatch.setattr(runner, "_Recorder", None)  # drawing examples again would need one
    for check, case, reply in right:
        judge = "returns" if check.expect == "linear_time" else case.expect or check.expect
        assert JUDGES[judge](check, case, reply) is None, (check.id, case.label)
    runner.warm()


RAISES_THE_LIMIT = """
import sys

sys.setrecursionlimit(10**6)  # at load


def limit():
    sys.setrecursionlimit(10**6)  # in a call
    return sys.getrecursionlimit()


def lowered(limit):
    sys.setrecursionlimit(limit)
    return sys.getrecursionlimit()


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
"""


def test_learner_code_cannot_raise_the_recursion_limit():
    """At load or in a call, raising the limit leaves it at Python's default: deep recursion still fails."""
    with sandbox_of(RAISES_THE_LIMIT) as sandbox:
        assert sandbox.call("limit", [])["value"] == 1000
        deep = sandbox.call("depth", [5000], graph_arg=False)
        assert deep["status"] == "raised" and deep["error"]["type"] == "RecursionError"
        assert sandbox.call("depth", [500], graph_arg=False)["value"] == 500
        assert sandbox.call("lowered", [200], graph_arg=False)["value"] == 200  # lowering it is the code's own business
        assert sandbox.call("depth", [500], graph_arg=False)["value"] == 500  # and holds for that call only
