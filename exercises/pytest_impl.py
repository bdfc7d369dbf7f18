"""A pytest plugin for the public tests: the --impl option, the `impl` fixture, fixed Hypothesis settings,
and a short report per task (a task not written yet is one line per test, not a traceback).

Both the kit's conftest.py and the learner bundle's load it with
``pytest_plugins = ["exercises.pytest_impl"]``.
"""

import importlib.util

import pytest
from hypothesis import HealthCheck, settings

from exercises.loader import DEFAULT_MODULE, PACKAGES, load_implementation
from exercises.tasks import TASKS

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
        named["solutions"] = "solutions"
    return named


def pytest_configure(config):
    """One marker per task (task_<name>), from exercises/tasks.py, which `make stubs` writes from the references."""
    for task, module in TASKS.items():
        config.addinivalue_line("markers", f"task_{task}: public tests for {task} in exercises/{module}.py")


def pytest_addoption(parser):
    parser.addoption(
        "--impl",
        default="exercises",
        help=f"code under test: {' or '.join(repr(n) for n in _packages())} (default: exercises/, one module per lesson), "
        "or a .py/.ipynb/folder path",
    )


_LOADED = {}


def _load(config, module):
    spec = config.getoption("--impl")
    if (spec, module) not in _LOADED:
        _LOADED[spec, module] = load_implementation(spec, _packages(), module)
    return _LOADED[spec, module]


@pytest.fixture(scope="module")
def impl(request):
    """The implementation chosen with --impl, of the lesson module the test file names in ``MODULE`` (default graph)."""
    return _load(request.config, getattr(request.module, "MODULE", DEFAULT_MODULE))


@pytest.fixture(scope="module")
def earlier(request):
    """``earlier("graph", "evaluate")``: a function of an earlier lesson's module, from the same --impl.

    A later lesson's tests use the learner's own earlier work (lesson 1's evaluate, say) rather than a
    copy of it in the tests: a test that needs one that is not written yet is skipped, saying which.
    """

    def function(module, name):
        found = getattr(_load(request.config, module), name, None)
        needs = f"needs {name} from exercises/{module}.py, which is not written yet: write it first"
        if not callable(found):
            pytest.skip(needs)

        def call(*args, **kwargs):
            try:
                return found(*args, **kwargs)
            except NotImplementedError:
                pytest.skip(needs)

        return call

    return function


TASK_PREFIX = "task_"


def _task(item):
    return next((m.name[len(TASK_PREFIX):] for m in item.iter_markers() if m.name.startswith(TASK_PREFIX)), None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that fails only because its task still raises NotImplementedError says so in one line."""
    outcome = yield
    report = outcome.get_result()
    task = _task(item)
    report.user_properties.append(("task", task))
    if report.failed and call.excinfo is not None and call.excinfo.errisinstance(NotImplementedError):
        report.longrepr = f"{item.nodeid}: {task or 'this task'} is not written yet ({call.excinfo.value or 'NotImplementedError'})"
        report.user_properties.append(("unwritten", True))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """One line per task, before the failures: how many of its public tests pass, or that it is not written yet."""
    terminalreporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if terminalreporter is None:
        return
    tasks = {}
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            if getattr(report, "when", "call") != "call":
                continue
            props = dict(getattr(report, "user_properties", []))
            if props.get("task"):
                passed, total, unwritten = tasks.get(props["task"], (0, 0, 0))
                tasks[props["task"]] = (passed + (outcome == "passed"), total + 1, unwritten + bool(props.get("unwritten")))
    if not tasks:
        return
    terminalreporter.write("\n")
    terminalreporter.section("public tests per task")
    for task, (passed, total, unwritten) in tasks.items():
        if unwritten == total:
            terminalreporter.line(f"{task:<10} not written yet: replace its raise NotImplementedError with your code")
        else:
            terminalreporter.line(f"{task:<10} {passed} of {total} public tests pass")
