"""Shared pytest setup: which implementation the public tests run against, and Hypothesis profiles.

    pytest exercises/tests                         # your stubs in exercises/graph.py (the default)
    pytest exercises/tests --impl=solutions        # the reference
    pytest exercises/tests --impl=path/to/file.py  # any module file, notebook or submission folder
"""

import importlib
import types

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "kit",
    derandomize=True,  # the same examples on every run and every machine
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile("kit")

PACKAGES = {"exercises": "exercises.graph", "solutions": "solutions.graph"}


def pytest_addoption(parser):
    parser.addoption(
        "--impl",
        default="exercises",
        help="implementation under test: 'exercises' (default), 'solutions', or a .py/.ipynb/folder path",
    )


def load_implementation(spec: str):
    """Return a module-like object with OPS, evaluate, inputs_of, users_of and backward."""
    if spec in PACKAGES:
        return importlib.import_module(PACKAGES[spec])
    from autograder.submission import load

    submission = load(spec)
    module = types.ModuleType("submission")
    module.__file__ = str(submission.origin)
    for chunk in submission.chunks:
        try:
            exec(compile(chunk.code, chunk.label, "exec"), module.__dict__)
        except Exception as err:  # a broken cell should not hide the others
            print(f"{chunk.label}: {type(err).__name__}: {err}")
    return module


@pytest.fixture(scope="session")
def impl(request):
    """The implementation chosen with --impl."""
    return load_implementation(request.config.getoption("--impl"))
