"""Speed benchmarks (`make bench`): numbers to watch, never assertions in tests.

    python -m autograder.tools.bench

Prints the sandbox's round-trip time for a small call, the time to start a child,
the time to grade the first submission in a process (which also draws the property
checks' examples and times the reference for linear_time), the time to grade one
full submission with every hidden check, and the time of each check family on the
reference. The machine's load average comes first: on a shared machine the wall-clock
figures move with it, so the grader's own CPU time for one submission (which other
work on the machine changes less) is printed too.
"""

import os
import resource
import statistics
import time

from autograder.grading import checks
from autograder.grading.runner import Runner, grade
from autograder.sandbox import isolation
from autograder.sandbox.parent import Sandbox
from autograder.grading.submission import Chunk, Submission
from solutions import graph as reference

SOURCE = open(reference.__file__, encoding="utf-8").read()
SMALL_GRAPH = [["p", "mul", ["a", "b"]], ["z", "add", ["p", "c"]]]


def small_call_seconds(calls=500):
    with Sandbox([Chunk("reference", SOURCE)]) as sandbox:
        sandbox.call("users_of", [SMALL_GRAPH, "a"])  # start the child first
        times = []
        for _ in range(calls):
            started = time.perf_counter()
            sandbox.call("evaluate", [SMALL_GRAPH, {"a": 2, "b": 3, "c": 1}])
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def child_start_seconds(starts=5):
    times = []
    for _ in range(starts):
        started = time.perf_counter()
        with Sandbox([Chunk("reference", SOURCE)]) as sandbox:
            sandbox.call("users_of", [SMALL_GRAPH, "a"])
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def family_seconds():
    totals = {}
    with Sandbox([Chunk("reference", SOURCE)]) as sandbox:
        runner = Runner(sandbox)
        for check in checks.all_checks():
            started = time.perf_counter()
            runner.run(check)
            totals[check.family] = totals.get(check.family, 0.0) + time.perf_counter() - started
    return totals


def _cpu_seconds():
    """User + system time of this process (the grader: sending, reading, judging), not of the sandbox child."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def main():
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"sandbox: {isolation.probe()[0]}; CPU time counted {'by cgroup' if isolation.cgroup_base() else 'from /proc'}")
    print(f"child start (isolated, code loaded): {child_start_seconds() * 1000:.1f} ms")
    print(f"small call round trip (median of 500): {small_call_seconds() * 1e6:.0f} us")
    first = grade(Submission("warm-up", [Chunk("reference", SOURCE)]))  # examples drawn, reference timed, answers cached
    print(f"first submission in this process (examples drawn, reference timed): {first.seconds:.2f} s")
    runs, cpu = [], []
    for _ in range(3):
        before = _cpu_seconds()
        runs.append(grade(Submission("reference", [Chunk("reference", SOURCE)])).seconds)
        cpu.append(_cpu_seconds() - before)
    print(f"one full submission, {len(checks.all_checks())} checks (median of 3): {statistics.median(runs):.2f} s, "
          f"of which the grader's own CPU time {statistics.median(cpu):.2f} s")
    for family, seconds in sorted(family_seconds().items(), key=lambda item: -item[1]):
        print(f"  {family:<30} {seconds:.3f} s")


if __name__ == "__main__":
    main()
