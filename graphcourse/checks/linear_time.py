"""backward runs in time linear in the number of edges: a quadratic sweep cannot pass."""

import dataclasses
import functools

from graphcourse.checks import Check, built_call

RULE = "backward runs in time linear in the number of edges."
# Time alone is judged: the graph is shallow (depth 16), so recursion plays no part. The answer's bar is
# deep_graph's: the learner's own answer on four of the same blocks, carried back block by block
# (judge_carried_back), so an answer worked out cheaply for large inputs cannot pass, and a wrong number can.
BLOCKS = 4096


@functools.cache
def blocks(count):
    description = {"shape": "tree_of_blocks", "count": count}  # the child builds the graph: no JSON to decode
    case = built_call(
        "backward", description, label=f"{count:,} blocks that all read x, summed pairwise", expect="carried_back"
    )
    return dataclasses.replace(case, driver="backward_after_short_tree")


@functools.cache
def cases():
    return (blocks(BLOCKS),)


def growth(case):
    """An eighth and a quarter of the blocks: how a sweep too slow on all of them grows."""
    return "blocks", [(count, blocks(count)) for count in (BLOCKS // 8, BLOCKS // 4)]


CHECKS = [
    Check(
        "linear_time/wide_fan_out",
        "backward",
        4,
        RULE,
        "linear_time",
        cases=cases,
        growth=growth,
    ),
]
