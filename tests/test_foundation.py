"""The foundation: stubs generated from the reference, and public tests that tell them apart."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from autograder.authoring import stubs as stubgen
from autograder.course.paths import REFERENCE, reference_modules
from exercises.tasks import TASKS
from tests.conftest import ROOT


def run_public_tests(tmp_path, *args):
    """Run the public tests in a child pytest and return {test id: outcome}."""
    report = tmp_path / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "exercises/tests", "-q", f"--junitxml={report}", *args],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    outcomes = {}
    for case in ET.parse(report).iter("testcase"):
        kinds = {child.tag for child in case}
        outcome = "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"
        outcomes[f"{case.get('classname')}::{case.get('name')}"] = outcome
    return outcomes


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


# A pytest plugin for one collection of the public tests: each test's id and the task markers pytest's -m
# matches it by (the markers of the test, its class and its module), one line per test.
MARKER_PROBE = """
def pytest_collection_finish(session):
    for item in session.items:
        tasks = sorted({mark.name for mark in item.iter_markers() if mark.name.startswith("task_")})
        print("TASKS", item.nodeid, *tasks)
"""


@pytest.mark.slow
def test_each_task_selects_its_own_tests(tmp_path):
    """`make check TASK=x` (pytest -m task_x) runs a non-empty, separate set of tests per task: every public test
    carries exactly one task's marker, and every task marks some test (read from one collection of them all)."""
    (tmp_path / "task_marker_probe.py").write_text(MARKER_PROBE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "exercises/tests",
            "--collect-only",
            "-q",
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
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    marked = {line.split()[1]: line.split()[2:] for line in run.stdout.splitlines() if line.startswith("TASKS ")}
    assert marked, run.stdout[-3000:]
    assert marked.keys() == {line for line in run.stdout.splitlines() if "::" in line and not line.startswith("TASKS ")}
    known = {f"task_{task}" for task in TASKS}
    wrong = {test: tasks for test, tasks in marked.items() if len(tasks) != 1 or tasks[0] not in known}
    assert not wrong, f"tests not marked for exactly one task: {wrong}"
    unmarked = known - {tasks[0] for tasks in marked.values()}
    assert not unmarked, f"no public test is marked {sorted(unmarked)}"


def test_notebook_path_loads_as_implementation(tmp_path):
    """--impl accepts a notebook whose code cells define the functions."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(REFERENCE.read_text())]
    path = tmp_path / "mine.ipynb"
    nbformat.write(nb, path)
    graph_tasks = " or ".join(f"task_{task}" for task, module in TASKS.items() if module == "graph")
    outcomes = run_public_tests(tmp_path, f"--impl={path}", "-m", graph_tasks)
    assert outcomes and all(outcome == "passed" for outcome in outcomes.values())
