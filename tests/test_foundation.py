"""The foundation: stubs generated from the reference, and public tests that tell them apart."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from autograder.authoring import stubs as stubgen
from tests.conftest import ROOT

TASKS = ("evaluate", "inputs_of", "users_of", "backward")


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


def collect_public_tests(*args):
    """The ids of the public tests that pytest would run with these arguments."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "exercises/tests", "--collect-only", "-q", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return {line for line in out.splitlines() if "::" in line}


def test_committed_stub_matches_reference():
    """exercises/graph.py is exactly what `make stubs` generates from solutions/graph.py."""
    expected = stubgen.stub_source(stubgen.REFERENCE.read_text())
    assert stubgen.STUB.read_text() == expected, "exercises/graph.py has drifted from the reference: run `make stubs`"


def test_stub_has_one_notimplemented_per_task():
    """Every task's body in the stub is a single NotImplementedError naming the task."""
    stub = stubgen.STUB.read_text()
    for task in TASKS:
        assert stub.count(f'raise NotImplementedError("task {task}:') == 1, task
    assert "### BEGIN SOLUTION" not in stub and "reversed(" not in stub


def test_stub_generation_keeps_signatures_and_docstrings():
    """The stub defines the same functions, signatures and docstrings as the reference."""
    import exercises.graph as stub
    import inspect

    import solutions.graph as ref

    for task in TASKS:
        assert inspect.signature(getattr(stub, task)) == inspect.signature(getattr(ref, task))
        assert getattr(stub, task).__doc__ == getattr(ref, task).__doc__
    assert stub.OPS.keys() == ref.OPS.keys()


def test_stubs_fail_every_public_test(tmp_path):
    """Against the untouched stubs, every public test fails (none passes by accident)."""
    outcomes = run_public_tests(tmp_path, "--impl=exercises")
    assert len(outcomes) >= 25
    passed = sorted(name for name, outcome in outcomes.items() if outcome != "failed")
    assert not passed, f"these public tests do not fail on the stubs: {passed}"


def test_reference_passes_every_public_test(tmp_path):
    """Against the reference, every public test passes."""
    outcomes = run_public_tests(tmp_path, "--impl=solutions")
    failed = sorted(name for name, outcome in outcomes.items() if outcome != "passed")
    assert outcomes and not failed, f"these public tests fail on the reference: {failed}"


@pytest.mark.slow
def test_each_task_selects_its_own_tests():
    """`make check TASK=x` (pytest -m task_x) runs a non-empty, separate set of tests per task."""
    seen = set()
    for task in TASKS:
        selected = collect_public_tests("-m", f"task_{task}")
        assert selected, f"no public test is marked task_{task}"
        assert not selected & seen, f"tests marked for two tasks: {selected & seen}"
        seen |= selected
    assert seen == collect_public_tests()


def test_notebook_path_loads_as_implementation(tmp_path):
    """--impl accepts a notebook whose code cells define the functions."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(stubgen.REFERENCE.read_text())]
    path = tmp_path / "mine.ipynb"
    nbformat.write(nb, path)
    outcomes = run_public_tests(tmp_path, f"--impl={path}")
    assert outcomes and all(outcome == "passed" for outcome in outcomes.values())
