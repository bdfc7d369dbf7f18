"""The graph course's own figures for `make bench`: the reference backward's time as graphs grow, and otter's tests.

Graphs come from graphcourse/builders.py, the same shapes the hidden checks use. The bench
prints the time per edge at each size and the log-log slope of the time against the edges,
as information: 1 is linear, and the machine's caches move it.

``CLASS`` and ``class_entries()`` make up the bench's realistic class (autograder/tools/cohorts.py
builds it): mostly single mistakes of the zoo, some slow or recursive sweeps, a few untouched
notebooks and a few correct answers, drawn from the zoo entries of the lessons a learner hands in.

``otter_tests()`` is the same exercise for otter (`otter run`, when otter is installed): the
worked examples of graph.py's functions as OK-format doctests, answers from the reference.
"""

import functools
import gc
import math
import time

from autograder.course.lessons import LESSONS, module_of, read_lesson
from graphcourse import builders, demo, zoo
from graphcourse.checks import all_checks
from solutions import graph as reference

SIZES = (10**4, 10**5, 10**6)


def edge_count(graph):
    return sum(len(inputs) for _name, _op, inputs in graph)


def description(shape, edges):
    """A builders description whose graph has about ``edges`` edges."""
    if shape == "chain":  # neg (one edge) and add (two) alternate: 1.5 edges a node
        return {"shape": "chain", "length": max(1, round(edges / 1.5))}
    if shape == "wide":  # two edges per reader, then two per node of the summing tree: about 4 a reader
        return {"shape": "wide", "width": max(2, edges // 4)}
    raise ValueError(f"unknown shape {shape!r}")


def seconds_per_edge(shape, edges, runs=5, backward=reference.backward, clock=time.process_time):
    """(edges, best seconds per edge over ``runs`` calls of ``backward``) on a ``shape`` graph of about ``edges`` edges.

    The clock is this process's CPU time: on a shared machine, other processes change it far
    less than the wall clock. The garbage collector is paused during each call, as timeit does.
    """
    graph, values = builders.build(description(shape, edges))
    count = edge_count(graph)
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()  # as timeit does: a collection pass triggered by the sweep's allocations is not backward's work
        try:
            started = clock()
            backward(graph, values)
            best = min(best, clock() - started)
        finally:
            gc.enable()
    return count, best / count


def flatness(per_edge):
    """How far apart the times per edge are: (largest - smallest) / smallest."""
    return (max(per_edge) - min(per_edge)) / min(per_edge)


def slope(counts, seconds):
    """The least-squares slope of log(seconds) against log(counts): 1 for time linear in the count."""
    xs, ys = [math.log(c) for c in counts], [math.log(s) for s in seconds]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


SMALL_GRAPH = [["p", "mul", ["a", "b"]], ["z", "add", ["p", "c"]]]
SMALL_CALL = ("evaluate", [SMALL_GRAPH, {"a": 2, "b": 3, "c": 1}])  # the call whose round trip the bench times


def figures(progress):
    """Print the reference backward's time per edge and the log-log slope of its time; the summary's line."""
    print("\n== reference backward, CPU time per edge (in this process, best of 5)")
    slopes = {}
    for shape in ("chain", "wide"):
        counts, totals = [], []
        for size in SIZES:
            progress(f"backward on a {shape} of about {size:,} edges")
            count, seconds = seconds_per_edge(shape, size)
            counts.append(count)
            totals.append(seconds * count)
            print(f"  {shape:<5} {count:>9,} edges: {seconds * 1e9:7.1f} ns per edge")
        slopes[shape] = slope(counts, totals)
        print(
            f"  {shape:<5} log-log slope of the time against the edges: {slopes[shape]:.2f} (information: 1 is linear)"
        )
    return (
        "reference backward, log-log slope of time against edges: "
        + ", ".join(f"{shape} {value:.2f}" for shape, value in slopes.items())
        + " (information)"
    )


# The bench's realistic class, in a fixed order: (kind, share of the learners, what those learners do).
# "untouched" hands in the release notebooks; every other kind hands in the code of one of its zoo entries.
CLASS = (
    ("mistake", 0.70, "with one mistake from the zoo"),
    ("slow", 0.15, "with a slow or recursive sweep"),
    ("untouched", 0.05, "handing in the release notebooks untouched"),
    ("correct", 0.10, "with a correct answer"),
)
LONG_CALL_SECONDS = 1.0  # a fixed call allowed longer than this is one a slow or recursive sweep runs into


@functools.lru_cache(maxsize=None)
def timed_families(modules):
    """The families of the checks of ``modules`` that a slow or recursive sweep fails by running into a time
    limit: the timed ones, and those whose fixed calls may run longer than LONG_CALL_SECONDS (the deep chains)."""
    return {
        c.family
        for c in all_checks()
        if module_of(c.function) in modules
        and (
            c.expect == "linear_time"
            or (c.strategy is None and any((case.seconds or 0) > LONG_CALL_SECONDS for case in c.inputs()))
        )
    }


def slow(entry, modules):
    """Whether a zoo entry is a slow or recursive sweep: a misconception that may lose points in a timed family."""
    return entry.kind == "buggy" and not entry.scores_zero and bool(timed_families(modules) & entry.allowed())


def handed_in_modules():
    """The lesson modules of the lessons a demo learner hands in by default (demo.Learner's ``through``)."""
    through = demo.Learner("", "").through
    return {
        cell.settings["module"]
        for lesson in tuple(LESSONS)[:through]
        for cell in read_lesson(lesson)[0]
        if cell.kind == "reference"
    }


def class_entries():
    """{kind of CLASS: the names of the zoo entries its learners hand in}, in the zoo's order."""
    found = {kind: [] for kind, _share, _words in CLASS}
    modules = frozenset(handed_in_modules())
    for entry in zoo.entries():
        if entry.module not in modules:
            continue
        kind = "correct" if entry.kind == "correct" else "slow" if slow(entry, modules) else "mistake"
        found[kind].append(entry.name)
    return found


OTTER_MODULE = "graph.py"  # the hand-in otter grades: the reference's module, as a learner hands it in
OTTER_CALLS = (  # (function, arguments): the lesson's worked examples, called as a learner's test would
    ("evaluate", ([("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])], {"a": 2, "b": 3, "c": 1})),
    ("inputs_of", ([("p", "mul", ["a", "b"]), ("q", "mul", ["p", "p"])], "q")),
    ("users_of", ([("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"])], "a")),
    ("backward", ([("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])], {"a": 2, "b": 3, "c": 1, "p": 6, "z": 7})),
    ("backward", ([("p", "mul", ["a", "a"]), ("q", "tanh", ["p"])], {"a": 0.5, "p": 0.25, "q": math.tanh(0.25)})),
)


def otter_tests():
    """{test name: OK-format test} for otter: each worked example's answer, compared with the reference's."""
    tests = {}
    for i, (function, args) in enumerate(OTTER_CALLS):
        want = getattr(reference, function)(*args)
        code = f">>> {function}(*{args!r}) == {want!r}\nTrue"
        tests[f"q{i + 1}_{function}"] = {
            "name": f"q{i + 1}_{function}",
            "points": 1,
            "suites": [
                {
                    "cases": [{"code": code, "hidden": False, "locked": False}],
                    "scored": True,
                    "setup": "",
                    "teardown": "",
                    "type": "doctest",
                }
            ],
        }
    return tests
