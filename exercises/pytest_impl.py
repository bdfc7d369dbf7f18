"""A pytest plugin for the public tests: the --impl option, the `impl` fixture, fixed Hypothesis settings.

Both the kit's conftest.py and the learner bundle's load it with
``pytest_plugins = ["exercises.pytest_impl"]``.
"""

import importlib.util

import pytest
from hypothesis import HealthCheck, settings

from exercises.loader import PACKAGES, load_implementation

settings.register_profile(
    "kit",
    derandomize=True,  # the same examples on every run and every machine
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile("kit")


def _packages():
    """Named implementations: exercises always, the reference where it is installed (the kit, not the bundle)."""
    named = dict(PACKAGES)
    if importlib.util.find_spec("solutions") is not None:
        named["solutions"] = "solutions.graph"
    return named


def pytest_addoption(parser):
    parser.addoption(
        "--impl",
        default="exercises",
        help=f"code under test: {' or '.join(repr(n) for n in _packages())} (default: exercises/graph.py), "
        "or a .py/.ipynb/folder path",
    )


@pytest.fixture(scope="session")
def impl(request):
    """The implementation chosen with --impl."""
    return load_implementation(request.config.getoption("--impl"), _packages())
