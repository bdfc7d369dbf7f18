"""Pytest setup for the public tests: which code they test, and fixed Hypothesis settings.

    pytest exercises/tests                                  # your exercises/graph.py (the default)
    pytest exercises/tests --impl=notebooks                 # the code cells of your lesson notebooks
    pytest exercises/tests --impl=path/to/file.py           # any module file, notebook or folder
"""

import pytest
from hypothesis import HealthCheck, settings

from exercises.loader import load_implementation

settings.register_profile(
    "kit",
    derandomize=True,  # the same examples on every run and every machine
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile("kit")


def pytest_addoption(parser):
    parser.addoption(
        "--impl",
        default="exercises",
        help="code under test: 'exercises' (default, exercises/graph.py), or a .py/.ipynb/folder path",
    )


@pytest.fixture(scope="session")
def impl(request):
    """The implementation chosen with --impl."""
    return load_implementation(request.config.getoption("--impl"))
