"""Run the batch (python -m autograder.pipeline.batch) and SIGKILL it the n-th time it reaches a stage.

    python tests/batch_killer.py STAGE N [batch arguments ...]

The crash test injects its kill points here, by wrapping the batch's own steps in
this process; production code carries none. The stages:

    hidden_checks        a graded record saved to the cache, the pool's workers still busy
    after_hidden_checks  the first hand-in's records cached (every one, with one worker), nbgrader not yet run
    in_autograde         inside nbgrader's autograde: the submission is in the gradebook, its grades are not
    mid_autograde        nbgrader's autograde of a hand-in done, the batch has not marked it graded
    mid_feedback         likewise for generate_feedback
"""

import functools
import os
import signal
import sys


def killer(times):
    """A function that SIGKILLs this process the ``times``-th time it is called."""
    reached = [0]

    def reach():
        reached[0] += 1
        if reached[0] == times:
            os.kill(os.getpid(), signal.SIGKILL)

    return reach


def after(owner, name, reach, when=lambda *args, **kwargs: True, before=False):
    """Wrap owner.name so that ``reach()`` runs after (or ``before``) each call for which ``when(*args)`` holds."""
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapped(*args, **kwargs):
        if before and when(*args, **kwargs):
            reach()
        result = original(*args, **kwargs)
        if not before and when(*args, **kwargs):
            reach()
        return result

    setattr(owner, name, wrapped)


def inject(stage, times):
    from autograder.grading import cellgrades
    from autograder.nbgrader.course_folder import Course
    from autograder.nbgrader.hidden_checks import HiddenChecks
    from autograder.pipeline import batch

    reach = killer(times)
    if stage == "hidden_checks":
        after(cellgrades, "save_record", reach)
    elif stage == "after_hidden_checks":
        after(Course, "call", reach, when=lambda course, name, *args, **kwargs: name == "autograde", before=True)
    elif stage == "in_autograde":
        original = HiddenChecks.preprocess

        def preprocess(self, nb, resources):
            reach()
            return original(self, nb, resources)

        HiddenChecks.preprocess = preprocess
    elif stage in ("mid_autograde", "mid_feedback"):
        step = {"mid_autograde": "autograde", "mid_feedback": "generate_feedback"}[stage]
        after(Course, "call", reach, when=lambda course, name, *args, **kwargs: name == step)
    else:
        raise SystemExit(f"unknown stage {stage!r}")
    return batch


if __name__ == "__main__":
    batch = inject(sys.argv[1], int(sys.argv[2]))
    sys.exit(batch.main(sys.argv[3:]))
