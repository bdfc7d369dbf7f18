"""topological_order runs in time linear in nodes plus edges: a scan for a ready node, again and again, or a ready list
emptied with pop(0), cannot pass."""

import dataclasses
import functools

from autograder.sandbox.channel import quiet_gc
from graphcourse.builders import build
from graphcourse.checks import Check
from graphcourse.checks.order_valid import order_call

RULE = "topological_order runs in time linear in the number of nodes plus edges."
# Timed against the reference, as linear_time is (the runner: 25 times its CPU time plus 0.25 s). Two levels,
# each node of the second reading one of the first: shallow, so recursion plays no part. The second level comes
# first and reads the first level backwards, so whenever a node becomes ready it sits behind every node still
# waiting: a pass that scans the records for a ready node makes 10,000 steps for each of 20,000 nodes.
# (20,000 records are 0.7 MB of JSON: the reference takes a few hundredths of a second of CPU on them, decoding
# included, and the scan about a minute.)
HALF = 10_000


# The wide records are judged by how the time grows (the runner's linear_growth): half of them are ready at once, and
# each one listed readies another, so a ready list that gives up its first node with pop(0) moves every other one
# up, a step per record still waiting. The readers come first, so the records as given are no answer.
# That costs little beside the rest of the work at a few thousand records, but on 200,000 it takes several times the
# reference's time, and four times the records take about sixteen times as long against the reference's four to five.
WIDE = (50_000, 200_000)
WIDE_SECONDS = 30.0  # wall clock for one wide call: the reference takes about a second of CPU on 200,000 records


@functools.cache
def cases():
    return (two_levels(HALF),)


@functools.cache
def wide_call(count):
    """topological_order on ``count`` wide records (builders.wide_records), built by the sandbox child."""
    description = {"shape": "wide_records", "count": count}
    (nodes,) = quiet_gc(build, description)
    records = {name: [op, list(inputs)] for name, (op, inputs) in nodes.items()}
    label = f"{count:,} records: {count // 2:,} that read only x, given after {count // 2:,} that each read one of them"
    return dataclasses.replace(
        order_call(records, label=label, expect="order_valid", seconds=WIDE_SECONDS), built=description
    )


@functools.cache
def wide_cases():
    return (wide_call(WIDE[-1]),)


def wide_growth(case):
    """The wide call at each size of WIDE, the case itself the largest."""
    return "records", [(count, wide_call(count)) for count in WIDE[:-1]] + [(WIDE[-1], case)]


def two_levels_growth(case):
    """The two levels at a 20th and a 10th of their size: how a pass too slow on them grows."""
    sizes = (HALF // 20, HALF // 10)  # a scan for a ready node takes a second or more already on 2,500 records
    return "records", [(2 * half, two_levels(half)) for half in sizes]


@functools.cache
def two_levels(half):
    """The two levels of ``half`` records each."""
    first = {f"a{k:05d}": [("mul", "add")[k % 2], ["x", "y"]] for k in range(half)}
    second = {f"b{k:05d}": ["sub", [f"a{half - 1 - k:05d}", "x"]] for k in range(half)}
    label = f"{2 * half:,} records: {half:,} nodes that read x and y, given after {half:,} that read them"
    return order_call({**second, **first}, label=label, expect="order_valid")


CHECKS = [
    Check(
        "order_linear_time/two_levels",
        "topological_order",
        1,
        RULE,
        "linear_time",
        cases=cases,
        growth=two_levels_growth,
    ),
    Check(
        "order_linear_time/wide",
        "topological_order",
        1,
        RULE,
        "linear_growth",
        cases=wide_cases,
        growth=wide_growth,
    ),
]
