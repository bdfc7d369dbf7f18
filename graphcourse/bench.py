"""Time per edge of the reference backward (solutions/graph.py) as graphs grow, for `make bench`.

Graphs come from graphcourse/builders.py, the same shapes the hidden checks use. A
backward that does constant work per edge shows the same time per edge at every size.
"""

import gc
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
