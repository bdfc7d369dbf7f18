"""On random graphs over all eight ops, backward agrees with central differences of evaluate."""

import functools

from exercises.strategies import smooth_graphs
from graphcourse.checks import Check, backward_call
from solutions.graph import evaluate

RULE = (
    "backward returns dL/d(name): on any graph, the slope it gives for each leaf matches the slope that central "
    "differences of evaluate measure (relative or absolute tolerance 1e-4; relu kinks and tiny denominators avoided)."
)


def cases(max_nodes):
    return smooth_graphs(evaluate, max_leaves=3, max_nodes=max_nodes).map(
        lambda case: backward_call(case[0], case[1], label="a random graph")
    )


CHECKS = [
    Check(
        "finite_difference_agreement/small_graphs",
        "backward",
        5,
        RULE,
        "finite_differences",
        strategy=functools.partial(cases, 4),
        examples=80,
    ),
    Check(
        "finite_difference_agreement/larger_graphs",
        "backward",
        5,
        RULE,
        "finite_differences",
        strategy=functools.partial(cases, 12),
        examples=80,
    ),
]
