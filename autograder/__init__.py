"""graphkit's grader: the course, the hidden checks, the sandbox, and nbgrader's pipeline around them.

The kit's layers, top first. A module imports only from its own layer and the
layers below it (``a | b`` are two independent packages of one layer, which do
not import each other); tests/test_layers.py holds the code to this.
"""

LAYERS = (
    "autograder.cli",  # python -m autograder grade | doctor
    "autograder.tools",  # make mutants, make bench
    "autograder.pipeline | autograder.authoring",  # make grade / collect; make notebooks / stubs / release
    "autograder.nbgrader",  # the only package that imports nbgrader: preprocessors, course folder, environment
    "autograder.grading",  # checks, zoo, judges, runner, answers, diagnosis, feedback, records
    "autograder.sandbox",  # runs learner code in a child process that answers with plain values
    "autograder.course",  # lessons, grade cells, worked examples, markers, paths
    "autograder.files",  # atomic writes
)
GRADING_LAYER = "autograder.grading"


def layers_from(layer):
    """The packages of ``layer`` and of every layer below it, as dotted names."""
    names = [name.strip() for entry in LAYERS for name in entry.split("|")]
    return names[names.index(layer) :]
