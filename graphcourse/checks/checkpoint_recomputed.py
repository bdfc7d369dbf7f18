"""backward_checkpointed's recomputed is exactly the number of nodes up to the output that are not checkpoints
(positions every-1, 2*every-1, ...)."""

from autograder.grading.compare import Failure, short
from graphcourse.checks import Check
from graphcourse.checks.checkpoint_gradients import answer_parts, checkpoint_call, power_chain

RULE = (
    "recomputed, the second part of backward_checkpointed's answer, is an int: the number of nodes up to the output "
    "that are not checkpoints, the checkpoints sitting at positions every-1, 2*every-1, ... (0 when every is 1)."
)
LEAVES = {"x": 3.0, "w": 1.25}


def judge_recomputed(check, case, reply):
    """The count alone: the gradients are checkpoint_gradients' business."""
    from graphcourse.judges import reference_answer  # here, not at import: judges.py imports the families

    _grads, recomputed, failure = answer_parts(case, reply)
    if failure:
        return failure
    want = reference_answer(case)[1]
    if type(recomputed) is not int or recomputed != want:
        graph, _leaves, every = case.args
        output = case.kwargs.get("output") or graph[-1][0]
        upto = 1 + next(k for k, (name, _op, _inputs) in enumerate(graph) if name == output)
        checkpoints = upto // every
        return Failure(
            case,
            f"recomputed should be {want}: {upto} nodes up to {output!r}, {checkpoints} of them "
            f"checkpoints (positions every-1, 2*every-1, ... with every={every}); got {short(recomputed)}",
        )
    return None


CHECKS = [
    Check(
        "checkpoint_recomputed/count",
        "backward_checkpointed",
        3,
        RULE,
        "checkpoint_recomputed",
        cases=(
            checkpoint_call(power_chain(16), LEAVES, 1, label="16 products, every=1: every node is a checkpoint"),
            checkpoint_call(power_chain(16), LEAVES, 4, label="16 products, every=4: checkpoints at 3, 7, 11, 15"),
            checkpoint_call(power_chain(16), LEAVES, 5, label="16 products, every=5: checkpoints at 4, 9, 14"),
            checkpoint_call(power_chain(10), LEAVES, 4, label="10 products, every=4: checkpoints at 3 and 7"),
            checkpoint_call(power_chain(10), LEAVES, 100, label="10 products, every=100: no checkpoint at all"),
            checkpoint_call(power_chain(16), LEAVES, 4, output="n9", label="16 products, every=4, output='n9'"),
        ),
    ),
]

JUDGES = {"checkpoint_recomputed": judge_recomputed}
