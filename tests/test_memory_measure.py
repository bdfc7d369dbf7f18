"""A call's peak memory, measured by the parent from outside the sandbox child (Sandbox.call(measure_memory=True))."""

import pytest

from autograder.grading.submission import Chunk
from autograder.sandbox import cgroups
from autograder.sandbox.parent import Limits, Sandbox

CODE = '''
def hold(size):
    kept = bytearray(size)
    return len(kept)

def spike(size):
    for _ in range(3):
        block = bytearray(size)  # freed at once: only the peak sees it
        del block
    return 0

def nothing(size):
    return size
'''
MB = 1 << 20


def measured(fn, size, sandbox):
    reply = sandbox.call(fn, [size], measure_memory=True)
    assert reply["status"] == "ok", reply
    return reply["memory_bytes"]


@pytest.fixture(params=["cgroup", "peak resident size"])
def measure(request, monkeypatch):
    """Both ways the parent measures: the child's memory cgroup where there is one, else its peak resident size."""
    if request.param == "peak resident size":
        monkeypatch.setattr(cgroups.Group, "memory_mark", lambda self: None)
    return request.param


def test_a_call_that_holds_or_briefly_touches_memory_is_measured_and_one_that_does_not_is_not(measure):
    with Sandbox([Chunk("m", CODE)]) as sandbox:
        assert measured("hold", 24 * MB, sandbox) >= 20 * MB
        sandbox.renew()
        assert measured("spike", 24 * MB, sandbox) >= 20 * MB
        sandbox.renew()
        assert measured("nothing", 24 * MB, sandbox) < 2 * MB


def test_the_measure_is_of_this_call_alone_and_needs_asking_for(measure):
    with Sandbox([Chunk("m", CODE)]) as sandbox:
        measured("hold", 24 * MB, sandbox)
        assert measured("nothing", 0, sandbox) < 2 * MB  # the earlier call's peak is not this one's
        assert "memory_bytes" not in sandbox.call("nothing", [0])


def test_a_renewed_child_spends_none_of_the_restarts_a_crash_would():
    with Sandbox([Chunk("m", CODE)], Limits(restarts=1)) as sandbox:
        for _ in range(3):
            assert sandbox.call("nothing", [1])["value"] == 1
            sandbox.renew()
        assert sandbox.call("nothing", [2])["value"] == 2
