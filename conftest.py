"""Shared pytest setup: which implementation the public tests run against, and Hypothesis profiles.

    pytest exercises/tests                         # your stubs in exercises/graph.py (the default)
    pytest exercises/tests --impl=solutions        # the reference
    pytest exercises/tests --impl=path/to/file.py  # any module file, notebook or submission folder
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

PACKAGES = {"exercises": "exercises.graph", "solutions": "solutions.graph"}


def pytest_addoption(parser):
    parser.addoption(
        "--impl",
        default="exercises",
        help="implementation under test: 'exercises' (default), 'solutions', or a .py/.ipynb/folder path",
    )


@pytest.fixture(scope="session")
def impl(request):
    """The implementation chosen with --impl."""
    return load_implementation(request.config.getoption("--impl"), PACKAGES)
