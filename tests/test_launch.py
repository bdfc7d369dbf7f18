"""A sandbox child starts in its cgroups and under its resource limits, through the gate or by a fork that sets them;
a child started ahead serves the next start, and so does a spare child started before its code was known."""

import ast
import json
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from autograder.course import active
from autograder.grading.submission import Chunk, Submission
from autograder.sandbox import cgroups, isolation, launch, spare
from autograder.sandbox.limits import Limits, resource_limits, rlimit_options
from autograder.sandbox.sandbox import Sandbox, close_all, start_spare

SHOW = (
    "import resource; "
    "print(repr([resource.getrlimit(getattr(resource, k)) for k in ('RLIMIT_CPU', 'RLIMIT_NOFILE', 'RLIMIT_FSIZE', "
    "'RLIMIT_CORE', 'RLIMIT_AS')])); "
    "print(open('/proc/self/cgroup').read())"
)
LIMITS = Limits(cpu_seconds=77, open_files=33, file_bytes=5 << 20, memory_bytes=3 << 30)


@pytest.mark.parametrize("way", ["gate", "fork"])
def test_a_child_starts_in_its_groups_and_under_its_limits(way, monkeypatch):
    """Through the gate (prlimit found) and by a fork that sets them (prlimit missing): the same limits and groups."""
    if way == "fork":
        real = isolation.tool
        monkeypatch.setattr(isolation, "tool", lambda name: "prlimit" if name == "prlimit" else real(name))
    elif not isolation.tool("prlimit").startswith("/"):
        pytest.skip("util-linux's prlimit is not installed here: every child is started by a fork that sets its limits")
    group = cgroups.new_group(LIMITS.sandbox_memory_bytes, LIMITS.processes)
    try:
        proc = launch.start(
            [sys.executable, "-I", "-S", "-c", SHOW], LIMITS, group, 8, True, None, stdout=subprocess.PIPE
        )
        out, _ = proc.communicate(timeout=30)
    finally:
        if group is not None:
            group.remove()
    assert proc.returncode == 0
    shown, *cgroup_lines = out.decode().splitlines()
    value = [LIMITS.cpu_seconds, LIMITS.open_files, LIMITS.file_bytes, 0, LIMITS.memory_bytes]
    assert ast.literal_eval(shown) == [(v, v) for v in value]
    if group is not None:
        paths = [line.split(":", 2)[2] for line in cgroup_lines if line.count(":") >= 2]
        assert all(any(p != "/" and folder.endswith(p) for p in paths) for folder in group.folders), (paths, group)
    assert (proc.args[0].endswith("/sh") and launch.GATE in proc.args) == (way == "gate")


def test_the_gate_runs_nothing_until_the_parent_sends_its_line(tmp_path):
    """A gate whose parent closes its input without the line (it could not admit the child) exits, running nothing."""
    marker = tmp_path / "ran"
    done = subprocess.run(
        [isolation.tool("sh"), "-c", launch.GATE, "sh", isolation.tool("touch"), str(marker)],
        stdin=subprocess.DEVNULL,
        timeout=30,
        check=False,
    )
    assert done.returncode == 98 and not marker.exists()


def test_the_limits_taken_by_a_fork_and_by_prlimit_are_one_list():
    """prlimit's options are the limits a fork sets, one for one, with the process limit only when asked."""
    memory, size = 3 << 30, 5 << 20
    expected = ["--cpu=77:77", f"--as={memory}:{memory}", "--nofile=33:33", f"--fsize={size}:{size}", "--core=0:0"]
    assert rlimit_options(LIMITS) == expected
    assert "--nproc=8:8" in rlimit_options(LIMITS, 8)
    assert resource.RLIMIT_NPROC not in [kind for kind, *_ in resource_limits(LIMITS)]


AHEAD = (
    "import os\nTOKEN = os.urandom(8).hex()\nCALLS = []\n"
    "\n\ndef token():\n    CALLS.append(1)\n    return [TOKEN, len(CALLS)]\n"
)


@pytest.fixture
def starts(monkeypatch):
    """[(thread name, sandbox, child process)] for every child a Sandbox starts, in order."""
    if not launch.gated(isolation.write_barrier()):
        pytest.skip("children here are started by a fork that sets their limits: none is started from a second thread")
    seen, real = [], Sandbox._start

    def recorded(sandbox, mark_memory=False):
        failed = real(sandbox, mark_memory=mark_memory)
        seen.append((threading.current_thread().name, sandbox, sandbox._proc))
        return failed

    monkeypatch.setattr(Sandbox, "_start", recorded)
    return seen


def test_a_child_started_ahead_is_fresh_and_serves_the_next_start(starts):
    """start_ahead: once the first child has loaded, a second loads in another thread; after a renewal the next call
    runs in it, with nothing of the earlier calls, and no third child is started."""
    with Sandbox([Chunk("ahead", AHEAD)]) as sandbox:
        sandbox.start_ahead()
        first, calls = sandbox.call("token", [])["value"]
        assert calls == 1
        assert sandbox.call("token", [])["value"] == [first, 2]
        sandbox.renew()
        token, calls = sandbox.call("token", [])["value"]
        assert (token != first, calls) == (True, 1)
        assert [name for name, _sandbox, _proc in starts] == ["MainThread", "graphkit-sandbox-ahead"]
        assert sandbox.call("token", [])["value"] == [token, 2]
        child = starts[1][2]
    assert child.returncode is not None


def test_a_child_started_ahead_unlike_the_call_is_not_taken_and_is_closed(starts):
    """A child started ahead without a memory mark never serves a call that measures memory; it is ended when the
    sandbox closes, as is one that nothing took up."""
    with Sandbox([Chunk("ahead", AHEAD)]) as sandbox:
        sandbox.start_ahead(mark_memory=False)
        sandbox.call("token", [])
        reply = sandbox.call("token", [], measure_memory=True)
        assert reply["status"] == "ok" and reply["value"][1] == 1
        assert [name for name, _sandbox, _proc in starts] == ["MainThread", "graphkit-sandbox-ahead", "MainThread"]
    with Sandbox([Chunk("ahead", AHEAD)]) as sandbox:
        sandbox.start_ahead()
        sandbox.call("token", [])
    assert len(starts) == 5
    for _name, ahead, proc in (starts[1], starts[4]):
        assert proc.returncode is not None and not Path(ahead._folder).exists()


@pytest.fixture
def spawned(monkeypatch):
    """[(sandbox, child process)] for every child process a Sandbox starts, in order; no spare is left after."""
    seen, real = [], Sandbox._spawn

    def recorded(sandbox, mode):
        real(sandbox, mode)
        seen.append((sandbox, sandbox._proc))

    monkeypatch.setattr(Sandbox, "_spawn", recorded)
    yield seen
    close_all()
    assert not spare._SPARE


@pytest.mark.parametrize("measure_memory", [False, True])
def test_a_spare_child_serves_the_next_learner_sandbox(spawned, measure_memory):
    """start_spare starts a child before any code is known; the next learner's sandbox with its limits loads its code
    in that child (marking memory first, when its call measures memory), and starts no child of its own."""
    start_spare()
    start_spare()  # one waits already: no second
    [(holder, child)] = spawned
    with Sandbox([Chunk("spare", AHEAD)]) as sandbox:
        reply = sandbox.call("token", [], measure_memory=measure_memory)
        assert reply["status"] == "ok" and reply["value"][1] == 1 and sandbox._proc is child
        if measure_memory and cgroups.cgroup_base() is not None and cgroups.v2_caps():
            assert reply["memory_bytes"] > 0
        assert sandbox.call("token", [])["value"][1] == 2
    assert len(spawned) == 1 and child.returncode is not None and not Path(holder._folder).exists()


@pytest.mark.parametrize("unlike", ["reference", "limits", "isolation"])
def test_a_spare_child_unlike_the_start_is_ended_and_not_used(spawned, unlike):
    """A reference sandbox, other limits, or another isolation than the spare started in: the spare is ended, and the
    sandbox starts its own child."""
    start_spare()
    [(holder, child)] = spawned
    if unlike == "isolation":
        holder._mode = "another"
    limits = Limits(call_seconds=7.0) if unlike == "limits" else Limits()
    with Sandbox([Chunk("spare", AHEAD)], limits, reference=unlike == "reference") as sandbox:
        assert sandbox.call("token", [])["status"] == "ok"
        assert len(spawned) == 2 and sandbox._proc is spawned[1][1]
        assert child.returncode is not None and not Path(holder._folder).exists()


def test_a_spare_child_nothing_took_is_ended_by_close_all(spawned):
    start_spare()
    [(holder, child)] = spawned
    assert close_all() == 1
    assert child.returncode is not None and not Path(holder._folder).exists()
    with Sandbox([Chunk("spare", AHEAD)]) as sandbox:  # the spare was taken from the slot when it was ended
        assert sandbox.call("token", [])["status"] == "ok" and len(spawned) == 2


def test_the_probes_run_early_in_a_thread_and_leave_no_probe_group(monkeypatch):
    """probe_early: the cgroup and isolation probes run beside this thread, once, and then what it is given;
    cgroup_base() waits for the cgroup probe and finds what it found, the probe's group is gone, and the isolation is
    not probed again."""
    base, level = cgroups.cgroup_base(), isolation.probe()
    monkeypatch.setattr(spare, "_PROBING", [])
    cgroups._probed_base.cache_clear()
    isolation._probe.cache_clear()
    ran = []
    spare.probe_early(
        then=lambda: ran.append((cgroups._probed_base.cache_info().currsize, isolation._probe.cache_info()))
    )
    spare.probe_early(then=lambda: ran.append("again"))
    assert [thread.name for thread in spare._PROBING] == ["graphkit-probe"]
    assert cgroups.cgroup_base() == base
    spare.settle()
    [(probed, isolated)] = ran  # then() ran once, after both probes
    assert probed == 1 and isolated.currsize == 1 and isolated.misses == 1
    assert isolation.probe() == level and isolation._probe.cache_info().misses == 1
    if base is not None:
        assert [name for name in os.listdir(base) if name.startswith(cgroups.PREFIX + "probe-")] == []


def test_the_cli_loads_the_hand_in_in_the_spare_child_and_leaves_no_child(spawned, monkeypatch, tmp_path, capsys):
    """python -m autograder grade starts the spare, after the probes, while it reads the hand-in; the hand-in's first
    child is the spare, and no child is left when the results are written."""
    from autograder import cli
    from autograder.sandbox import sandbox as sandboxes
    from tests.conftest import REFERENCE

    loaded, real = [], Sandbox._start

    def recorded(sandbox, mark_memory=False):
        failed = real(sandbox, mark_memory=mark_memory)
        loaded.append(sandbox._proc)
        return failed

    monkeypatch.setattr(Sandbox, "_start", recorded)
    monkeypatch.setattr(spare, "_PROBING", [])  # as in a fresh process
    handin = tmp_path / "graph.py"
    handin.write_bytes(REFERENCE.read_bytes())
    assert cli.main(["grade", str(handin), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 100
    if launch.gated(isolation.write_barrier()):  # where children may start from a second thread
        assert spawned[0][0].chunks == [] and loaded[0] is spawned[0][1]  # started with no code, then loaded it
    assert not sandboxes._RUNNING and all(proc.returncode is not None for _sandbox, proc in spawned)


@pytest.fixture
def sent(monkeypatch):
    """[("sent", the message's keys)] for every message a sandbox sends a child, in order; a test adds its own."""
    from autograder.sandbox import channel

    events, real_send = [], channel.Channel.send

    def send(self, message, *args):
        events.append(("sent", set(message)))
        return real_send(self, message, *args)

    monkeypatch.setattr(channel.Channel, "send", send)
    return events


def test_meanwhile_runs_once_the_request_is_sent(monkeypatch, sent):
    """Sandbox.call's meanwhile runs in the calling thread after the request is sent (while the child works on it),
    once; a timed check hands it the judging its case needs (the course's work_out)."""
    from autograder.grading import measured

    events = sent
    with Sandbox([Chunk("spare", AHEAD)]) as sandbox:
        reply = sandbox.call(
            "token", [], meanwhile=lambda: events.append(("meanwhile", threading.current_thread().name))
        )
    assert reply["status"] == "ok"
    assert events[-2][0] == "sent" and "fn" in events[-2][1] and events[-1] == ("meanwhile", "MainThread")
    assert [event for event in events if event[0] == "meanwhile"] == [("meanwhile", "MainThread")]

    worked = []
    monkeypatch.setattr(measured, "working_out", lambda expect, case: lambda: worked.append((expect, case.label)))

    class Timed(measured.MeasuredRuns):
        def __init__(self, sandbox):
            self.sandbox = sandbox

    case = measured.inputs(next(c for c in active.part("checks").all_checks() if c.expect == "linear_time"))[0]
    with Sandbox([Chunk("spare", AHEAD)]) as sandbox:
        Timed(sandbox).measured_call(case, "carried_back", seconds=1.0, measure_cpu=True)
        Timed(sandbox).measured_call(case, seconds=1.0, measure_cpu=True)
    assert worked == [("carried_back", case.label)]


def test_while_loading_runs_once_the_code_is_sent(monkeypatch, sent):
    """Sandbox.while_loading's work runs in the starting thread once the code is sent to the first child, while it
    loads, and not again for a later child; the runner reads its measured checks' cases from the store then."""
    from autograder.grading import runner

    events = sent
    with Sandbox([Chunk("spare", AHEAD)]) as sandbox:
        sandbox.while_loading(lambda: events.append(("work", threading.current_thread().name)))
        assert sandbox.call("token", [])["status"] == "ok"
        assert events[0] == ("sent", {"chunks"}) and events[1] == ("work", "MainThread")
        sandbox.renew()
        assert sandbox.call("token", [])["status"] == "ok"
    assert [event for event in events if event[0] == "work"] == [("work", "MainThread")]

    read = []
    monkeypatch.setattr(runner, "inputs", lambda check: read.append(check.id) or ())
    monkeypatch.setattr(runner.Runner, "run", lambda self, check: self.sandbox.call("token", []) and None)
    checks = [c for c in active.part("checks").all_checks() if c.function == "backward"]
    runner.grade(Submission("spare", [Chunk("spare", AHEAD)]), checks)
    assert read == [c.id for c in checks if runner.is_measured(c)] and read


TEARDOWN = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: print('torn down', file=sys.stderr))\n"
    "sys.argv = ['autograder', *sys.argv[1:]]\n"
    "runpy.run_module('autograder', run_name='__main__')\n"
)


def test_the_grade_command_ends_once_its_results_are_written(tmp_path):
    """python -m autograder grade ends as soon as its results are written and flushed, with its exit code, without
    the interpreter's teardown (an atexit function does not run); any other command ends as usual."""
    from tests.conftest import REFERENCE

    handin, low, written = tmp_path / "graph.py", tmp_path / "low" / "graph.py", tmp_path / "results.json"
    handin.write_bytes(REFERENCE.read_bytes())
    low.parent.mkdir()
    low.write_text("def evaluate(graph, leaves):\n    return {}\n")

    def run(*args):
        return subprocess.run([sys.executable, "-c", TEARDOWN, *map(str, args)], capture_output=True, text=True)

    done = run("grade", handin, "--json", "--output", written)
    assert done.returncode == 0 and "torn down" not in done.stderr
    assert json.loads(done.stdout)["score"] == 100 and json.loads(written.read_text()) == json.loads(done.stdout)
    below = run("grade", low, "--fail-under", "50")
    assert below.returncode == 1 and "below --fail-under 50%" in below.stderr and "torn down" not in below.stderr
    assert "evaluate" in below.stdout
    assert "torn down" in run("doctor").stderr
