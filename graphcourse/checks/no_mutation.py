"""evaluate and backward leave their arguments as they were."""

import dataclasses

from graphcourse.builders import build
from graphcourse.checks import Check, call
from graphcourse.examples import ABC_SQUARED

KEEP = {"return_args": True}
# The property alone is judged: the arguments after the call, and an answer that passes a bar no constant answer
# passes. evaluate's: every node named, the first one's value right (judge_unchanged). backward's: the learner's
# own answer on a short input of the same blocks, carried back block by block (judge_carried_back), which no
# misconception about the numbers fails.


def blocks_call(description, driver, label):
    graph, values = build(description)
    case = call("backward", graph, values, label=label, output=graph[-1][0], flags=KEEP)
    return dataclasses.replace(case, driver=driver)


CHECKS = [
    Check(
        "no_mutation/evaluate",
        "evaluate",
        2,
        "evaluate does not modify leaves or graph.",
        "unchanged",
        cases=(call("evaluate", ABC_SQUARED, {"a": 2, "b": 3, "c": 1}, label="L = (a*b + c)**2", flags=KEEP),),
    ),
    Check(
        "no_mutation/backward",
        "backward",
        2,
        "backward does not modify its arguments.",
        "carried_back_unchanged",
        cases=(
            blocks_call(
                {"shape": "chain_of_blocks", "count": 5}, "backward_after_short_chain", "a chain of 5 blocks of 4 nodes"
            ),
            blocks_call(
                {"shape": "tree_of_blocks", "count": 8},
                "backward_after_short_tree",
                "8 blocks that all read x, summed pairwise",
            ),
        ),
    ),
]
