"""Hypothesis strategies for random computation graphs over all eight ops.

Hypothesis is imported when a strategy is first built, not when this module is: ``st`` stands for
``hypothesis.strategies``, and a function decorated with ``@st.composite`` becomes a strategy when
it is called. Code that only computes (central_difference) never loads Hypothesis.
"""

import functools
import math


def _hypothesis_strategies():
    from hypothesis import strategies

    return strategies


@functools.cache
def _composed(draw_function):
    return _hypothesis_strategies().composite(draw_function)


class _Strategies:
    """``hypothesis.strategies``, imported on first use; ``composite`` waits for the strategy to be asked for."""

    @staticmethod
    def composite(draw_function):
        @functools.wraps(draw_function)
        def strategy(*args, **kwargs):
            return _composed(draw_function)(*args, **kwargs)

        return strategy

    def __getattr__(self, name):
        return getattr(_hypothesis_strategies(), name)


st = _Strategies()

ARITY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "sq": 1, "tanh": 1, "relu": 1, "neg": 1}


@st.composite
def graphs(draw, max_leaves=3, max_nodes=8):
    """Draw ``(graph, leaves)``: a graph listed in computable order, inputs picked from earlier names.

    Inputs may repeat, so fan-out and nodes that read one value twice both occur.
    """
    n_leaves = draw(st.integers(1, max_leaves))
    values = st.floats(-2.0, 2.0, allow_nan=False).map(lambda v: round(v, 3))
    leaves = {f"x{i}": draw(values) for i in range(n_leaves)}
    names = list(leaves)
    graph = []
    for i in range(draw(st.integers(1, max_nodes))):
        op = draw(st.sampled_from(sorted(ARITY)))
        inputs = [draw(st.sampled_from(names)) for _ in range(ARITY[op])]
        graph.append((f"n{i}", op, inputs))
        names.append(f"n{i}")
    return graph, leaves


def smooth_graphs(evaluate, max_leaves=3, max_nodes=8, kink=1e-2, tiny=0.2, big=1e3):
    """Graphs whose values (computed with ``evaluate``) stay moderate and away from relu's kink and tiny denominators.

    On such graphs central differences are an honest check of the gradient.
    """

    def well_behaved(case):
        graph, leaves = case
        try:
            values = evaluate(graph, leaves)
        except (ZeroDivisionError, OverflowError):
            return False
        for node, op, inputs in graph:
            if not math.isfinite(values[node]) or abs(values[node]) > big:
                return False
            if op == "relu" and abs(values[inputs[0]]) < kink:
                return False
            if op == "div" and abs(values[inputs[1]]) < tiny:
                return False
        return True

    return graphs(max_leaves, max_nodes).filter(well_behaved)


def central_difference(evaluate, graph, leaves, leaf, output, h=1e-6):
    """(L(leaf + h) - L(leaf - h)) / 2h with ``evaluate``, every other leaf held fixed."""
    up = evaluate(graph, {**leaves, leaf: leaves[leaf] + h})[output]
    down = evaluate(graph, {**leaves, leaf: leaves[leaf] - h})[output]
    return (up - down) / (2 * h)


__all__ = ["ARITY", "graphs", "smooth_graphs", "central_difference", "st"]
