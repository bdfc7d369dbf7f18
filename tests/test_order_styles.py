"""Lesson 4's checks judge validity, never one particular order: two styles that order differently both earn full marks."""

import pytest

from graphcourse import zoo
from graphcourse.checks.order_valid import WORKERS
from solutions.order import topological_order as reference_order
from tests.zoo_grades import all_grades

pytestmark = pytest.mark.slow


def order_of(name, records):
    """The names a correct zoo style lists for ``records``, run here: the zoo is our own code."""
    namespace = {"__name__": f"zoo_{name}"}
    exec(compile(zoo.source(zoo.entry(name)), name, "exec"), namespace)
    return [entry[0] for entry in namespace["topological_order"](records)]


def test_two_different_valid_orders_both_earn_full_marks():
    """Kahn's with a queue (the reference) lists u before v; with a stack, v before u: both are right."""
    records = {name: (op, list(inputs)) for name, (op, inputs) in WORKERS.items()}
    queue = [entry[0] for entry in reference_order(records)]
    stack = order_of("correct_order_kahn_stack", records)
    assert queue != stack and sorted(queue) == sorted(stack), (queue, stack)
    grades = all_grades()
    for name in ("reference", "correct_order_kahn_stack"):
        mine = {cid: (score, points) for cid, (score, points, _s, _m) in grades[name].items() if cid.startswith("order_")}
        assert mine and all(score == points for score, points in mine.values()), (name, mine)
