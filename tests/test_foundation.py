"""The foundation: stubs generated from the reference, and public tests that tell them apart."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from autograder.authoring import stubs as stubgen
from autograder.course.paths import REFERENCE, reference_modules
from exercises.tasks import TASKS
from tests.conftest import ROOT


def test_committed_stubs_match_the_references():
    """exercises/<module>.py and exercises/tasks.py are exactly what `make stubs` generates from solutions/."""
    for path, expected in stubgen.expected_files().items():
        assert path.exists() and path.read_text(encoding="utf-8") == expected, (
            f"exercises/{path.name} has drifted from solutions/: run `make stubs`"
        )


def test_every_reference_module_has_tasks_and_every_task_a_module():
    """exercises/tasks.py names each task of each reference module once, with its module."""
    modules = reference_modules()
    assert set(TASKS.values()) == set(modules)
    for name, path in modules.items():
        assert [t for t, m in TASKS.items() if m == name] == stubgen.tasks_of(path.read_text(encoding="utf-8"))


def test_stub_has_one_notimplemented_per_function_task():
    """Every function task's body in its stub is a single NotImplementedError naming the task."""
    for task, module in TASKS.items():
        stub = (ROOT / "exercises" / f"{module}.py").read_text(encoding="utf-8")
        assert "### BEGIN SOLUTION" not in stub, module
        if f"\ndef {task}(" in stub:
            assert stub.count(f'raise NotImplementedError("task {task}:') == 1, task
    assert "reversed(" not in (ROOT / "exercises" / "graph.py").read_text(encoding="utf-8")


def test_stub_generation_keeps_signatures_and_docstrings():
    """Each stub defines the same functions, signatures and docstrings as its reference."""
    import importlib
    import inspect

    for task, module in TASKS.items():
        stub, ref = importlib.import_module(f"exercises.{module}"), importlib.import_module(f"solutions.{module}")
        assert inspect.signature(getattr(stub, task)) == inspect.signature(getattr(ref, task)), task
        assert getattr(stub, task).__doc__ == getattr(ref, task).__doc__, task
    import exercises.graph
    import solutions.graph

    assert exercises.graph.OPS.keys() == solutions.graph.OPS.keys()


# That every public test fails on the untouched stubs, and passes on the reference, is held elsewhere: `make test`
# runs exercises/tests with --impl=solutions beside these files, and tests/test_release.py runs them in the learner
# bundle, whose stubs and public tests are these files, on the references and by `make check` on the stubs.


# A pytest plugin for the child run below: each collected test's id and the task markers pytest's -m matches it by
# (the markers of the test, its class and its module), one line per test, before -m deselects any.
MARKER_PROBE = """
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        tasks = sorted({mark.name for mark in item.iter_markers() if mark.name.startswith("task_")})
        print("TASKS", item.nodeid, *tasks)
"""
GRAPH_TASKS = [f"task_{task}" for task, module in TASKS.items() if module == "graph"]


@pytest.fixture(scope="module")
def notebook_run(tmp_path_factory):
    """One child pytest of the public tests: --impl a notebook whose one code cell is solutions/graph.py, -m the
    graph module's tasks, with MARKER_PROBE listing every collected test. ({test id: outcome}, the child's stdout)."""
    import nbformat

    tmp = tmp_path_factory.mktemp("public_tests")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(REFERENCE.read_text())]
    path = tmp / "mine.ipynb"
    nbformat.write(nb, path)
    (tmp / "task_marker_probe.py").write_text(MARKER_PROBE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp), os.environ.get("PYTHONPATH")]))}
    report = tmp / "report.xml"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "exercises/tests",
            "-q",
            f"--junitxml={report}",
            f"--impl={path}",
            "-m",
            " or ".join(GRAPH_TASKS),
            "-p",
            "task_marker_probe",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert report.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    outcomes = {}
    for case in ET.parse(report).iter("testcase"):
        kinds = {child.tag for child in case}
        outcome = "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"
        outcomes[f"{case.get('classname')}::{case.get('name')}"] = outcome
    return outcomes, run.stdout


@pytest.mark.slow
def test_each_task_selects_its_own_tests(notebook_run):
    """`make check TASK=x` (pytest -m task_x) runs a non-empty, separate set of tests per task: every public test
    carries exactly one task's marker, and every task marks some test (read from one collection of them all)."""
    outcomes, stdout = notebook_run
    marked = {line.split()[1]: line.split()[2:] for line in stdout.splitlines() if line.startswith("TASKS ")}
    assert marked, stdout[-3000:]
    deselected = re.search(r"(\d+) deselected", stdout)
    assert deselected and len(marked) == len(outcomes) + int(deselected.group(1)), "the probe saw every test"
    known = {f"task_{task}" for task in TASKS}
    wrong = {test: tasks for test, tasks in marked.items() if len(tasks) != 1 or tasks[0] not in known}
    assert not wrong, f"tests not marked for exactly one task: {wrong}"
    unmarked = known - {tasks[0] for tasks in marked.values()}
    assert not unmarked, f"no public test is marked {sorted(unmarked)}"
    assert len(outcomes) == sum(tasks[0] in GRAPH_TASKS for tasks in marked.values()), "-m ran the tests so marked"


def test_notebook_path_loads_as_implementation(notebook_run):
    """--impl accepts a notebook whose code cells define the functions."""
    outcomes, stdout = notebook_run
    assert outcomes and all(outcome == "passed" for outcome in outcomes.values()), stdout[-3000:]
