"""The fixture course's judges: the kit's judges by property, against the reference run in the grader."""

import importlib.util
from pathlib import Path

from autograder.grading import properties
from . import child_side

HERE = Path(__file__).parent


def reference_module(function):
    spec = importlib.util.spec_from_file_location("fixture_words", HERE / "solutions" / "words.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def answer(case):
    """The reference's answer: the driver run on the reference module, or the function called."""
    reference = reference_module(case.fn)
    if case.driver:
        return child_side.DRIVERS[case.driver](reference, *case.args)
    return getattr(reference, case.fn)(*case.args)


JUDGES = {
    "reference": lambda check, case, reply: properties.equal(case, reply, answer(case)),
    "driven": lambda check, case, reply: properties.equal(case, reply, answer(case)),
    "memory_bound": lambda check, case, reply: properties.equal(case, reply, answer(case)),  # the runner: the memory
    "raises_naming_text": lambda check, case, reply: properties.raises_naming(case, reply, ["text"]),
}


def work_out(judge, case):
    """Nothing to warm: every answer is quick."""
