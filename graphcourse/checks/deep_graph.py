"""backward works on a chain of 3,000 nodes, three times Python's recursion limit: no recursion."""

import dataclasses
import functools

from graphcourse.checks import Check, built_call

RULE = "backward runs without recursion, so a chain of 3,000 nodes works."
# Depth alone is judged. The sandbox keeps Python's recursion limit of 1,000, so a chain three times as long
# already stops any sweep that recurses once per node, while a sweep that is merely slow (quadratic, say:
# linear_time's business) still finishes it. The answer is judged by the learner's own answer on a chain of
# three of the same blocks, carried back block by block (graphcourse/judges.py, judge_carried_back): the numbers
# are the value families' business, and a special case for long inputs cannot pass.
BLOCKS = 750
# The reference sweeps the chain in a few milliseconds and a quadratic sweep in a few tenths of a second; a sweep that
# re-runs the graph below each name (slopes estimated by nudging values) takes seconds, and grew past 10 s only on a
# slow machine, so its grade hung on the machine's speed. 2 s is the smallest limit that decides it: every sweep
# that passes once over the graph finishes well within it on a machine several times slower (and the limit yields to
# a busy machine's load: autograder/sandbox/patience.py), and no re-running one does.
SECONDS = 2.0


@functools.cache
def cases():
    description = {"shape": "chain_of_blocks", "count": BLOCKS}  # the child builds the chain: no JSON to decode
    case = built_call("backward", description, label=f"a chain of {4 * BLOCKS:,} nodes", seconds=SECONDS)
    return (dataclasses.replace(case, driver="backward_after_short_chain"),)


CHECKS = [
    Check(
        "deep_graph/backward",
        "backward",
        4,
        RULE,
        "carried_back",
        cases=cases,
    ),
]
