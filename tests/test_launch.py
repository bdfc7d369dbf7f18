"""A sandbox child starts in its cgroups and under its resource limits, through the gate or by a fork that sets them;
a child started ahead serves the next start."""

import ast
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from autograder.grading.submission import Chunk
from autograder.sandbox import cgroups, isolation, launch
from autograder.sandbox.limits import Limits, resource_limits, rlimit_options
from autograder.sandbox.sandbox import Sandbox

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


def test_the_cgroup_probe_runs_in_a_thread_and_leaves_no_group():
    """probe_ahead: the probe runs beside this thread, cgroup_base() waits for it and finds what it found, and the
    probe's group is gone."""
    base = cgroups.cgroup_base()
    if base is None:
        pytest.skip("no cgroup v2 group can be made here: CPU time is read from /proc")
    cgroups._probed_base.cache_clear()
    cgroups.probe_ahead()
    assert cgroups.cgroup_base() == base
    assert [name for name in os.listdir(base) if name.startswith(cgroups.PREFIX + "probe-")] == []
