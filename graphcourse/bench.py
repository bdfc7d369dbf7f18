"""The graph course's own figures for `make bench`: the reference backward's time as graphs grow, and otter's tests.

Graphs come from graphcourse/builders.py, the same shapes the hidden checks use. The bench
prints the time per edge at each size and the log-log slope of the time against the edges,
as information: 1 is linear, and the machine's caches move it.

``otter_tests()`` is the same exercise for otter (`otter run`, when otter is installed): the
worked examples of graph.py's functions as OK-format doctests, answers from the reference.
"""

import gc
import math
import time

from graphcourse import builders
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
