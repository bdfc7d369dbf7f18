"""A sandbox child starts in its cgroups and under its resource limits, through the gate or by a fork that sets them."""

import ast
import resource
import subprocess
import sys

import pytest

from autograder.sandbox import cgroups, isolation, launch
from autograder.sandbox.limits import Limits, resource_limits, rlimit_options

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
