"""The graph course: computation graphs and reverse-mode differentiation, in six lessons.

Everything that is about graphs lives here, beside the kit's machinery (autograder/), which
finds this package by the name pyproject.toml gives it and never imports it:

    checks/       the hidden checks, one file per family
    judges.py     how a reply is judged against the references (gradients, names, properties)
    answers.py    the judges of the lessons' answer questions
    builders.py   large graphs described in a few bytes, built alike in the grader and the sandbox child
    drivers/      public programs the child runs against a learner's module (a tape, a class)
    examples.py   the lessons' worked examples
    diagnose.py   the misconception a submission's failures look like
    picture.py    the graph of a failed backward check, drawn for feedback
    zoo/          misconceptions and correct styles, one file each, proving the checks
    demo.py       the demo cohort, built from the zoo
    edges.py      backward's time per edge, for make bench

The references are solutions/<module>.py, the lesson sources notebooks/lessons/*.py, and the
public tests exercises/tests/: the top level learners and instructors know.
"""

from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent  # solutions/, exercises/ and notebooks/ sit at the top of the checkout, where learners know them
# Run by the sandbox child before its own code (standard library only): the codecs and large inputs, then the drivers.
CHILD_PARTS = (HERE / "builders.py", *sorted(p for p in (HERE / "drivers").glob("*.py") if not p.name.startswith("_")))
