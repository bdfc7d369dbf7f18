"""A pytest plugin for the public tests: the --impl option, the `impl` fixture, fixed Hypothesis settings,
and a short report per task, printed last: one line per task (a task not written yet says so once, with no
traceback) and the one next step.

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
        help=f"code under test: {' or '.join(repr(n) for n in _packages())} "
        "(default: exercises/, one module per lesson), or a .py/.ipynb/folder path",
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
    return next((m.name[len(TASK_PREFIX) :] for m in item.iter_markers() if m.name.startswith(TASK_PREFIX)), None)


UNWRITTEN = "not written"  # the outcome a test gets when it fails only because its task is not written yet


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that fails only because its task still raises NotImplementedError is marked so, its traceback dropped."""
    outcome = yield
    report = outcome.get_result()
    task = _task(item)
    report.user_properties.append(("task", task))
    if report.failed and call.excinfo is not None and call.excinfo.errisinstance(NotImplementedError):
        report.longrepr = (
            f"{item.nodeid}: {task or 'this task'} is not written yet ({call.excinfo.value or 'NotImplementedError'})"
        )
        report.user_properties.append(("unwritten", True))


def pytest_report_teststatus(report, config):
    """A not-written test still fails the run, but is counted apart: no traceback, no FAILED line, an 'n' in the
    progress."""
    if report.when == "call" and report.failed and dict(report.user_properties).get("unwritten"):
        return UNWRITTEN, "n", "NOT WRITTEN"
    return None


def _tally(terminalreporter):
    """{task: (passed, ran, not written, skipped)} over the tests' call reports, in exercises/tasks.py's order."""
    tasks = {}
    for outcome in ("passed", "failed", UNWRITTEN, "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            props = dict(getattr(report, "user_properties", []))
            if getattr(report, "when", "call") != "call" and outcome != "skipped" or not props.get("task"):
                continue
            passed, ran, unwritten, skipped = tasks.get(props["task"], (0, 0, 0, 0))
            tasks[props["task"]] = (
                passed + (outcome == "passed"),
                ran + (outcome != "skipped"),
                unwritten + (outcome == UNWRITTEN),
                skipped + (outcome == "skipped"),
            )
    order = list(TASKS)
    return dict(sorted(tasks.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)))


def _line(task, passed, ran, unwritten, skipped, width=10):
    if ran and unwritten == ran:
        return f"{task:<{width}} not written yet"
    said = f"{passed} of {ran} public tests pass" if ran else "no public test ran"
    return f"{task:<{width}} {said}" + (f" ({skipped} skipped: see why with -rs)" if skipped else "")


def _next_step(tasks):
    """The one thing to do next: the first task, in the lessons' order, whose public tests do not all pass."""
    for task, (passed, ran, unwritten, _skipped) in tasks.items():
        where = f"exercises/{TASKS.get(task, 'graph')}.py (or in its lesson notebook)"
        if ran and unwritten == ran:
            return f"next: write {task} in {where}, then run `make check TASK={task}`"
        if passed < ran:
            return (
                f"next: {task} fails {ran - passed} of its {ran} public tests: read their messages above, "
                f"fix it in {where}, then run `make check TASK={task}`"
            )
    if tasks:
        return "next: every public test that ran passes; the grader runs more checks on the same contract"
    return ""


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Last, after pytest's own failures and short summary: one line per task and the one next step."""
    yield
    tasks = _tally(terminalreporter)
    if not tasks:
        return
    terminalreporter.section("public tests per task")
    width = max(len(task) for task in tasks)
    for task, counts in tasks.items():
        terminalreporter.line(_line(task, *counts, width=width))
    terminalreporter.line("")
    terminalreporter.line(_next_step(tasks), bold=True)
