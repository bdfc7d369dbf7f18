"""A course nothing like the graph course (tests/fixture_course/), graded by the machinery as it is.

Its one lesson has a function on strings, a class a driver exercises, a judge by property, a check
of the memory a call holds and an answer question. The CLI grades it, in a process of its own started with
GRAPHKIT_COURSE naming it: nothing in autograder/ changes for it. make grade's pipeline grades its demo cohort in
tests/test_outside_course.py, on the same files built from docs/authoring.md; its Gradescope zip grades an upload
in tests/test_gradescope.py, under an isolated interpreter.
"""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

COURSE = "tests.fixture_course"
FIXTURE = ROOT / "tests" / "fixture_course"
ENV = dict(os.environ, GRAPHKIT_COURSE=COURSE)


def run(*args, cwd=ROOT, env=ENV, timeout=300):
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def fixture_part(name):
    """A part of the fixture course, imported here (its files are plain Python)."""
    import importlib

    return importlib.import_module(f"{COURSE}.{name}")


def points(function=None, family=None):
    checks = fixture_part("checks").all_checks()
    return sum(c.points for c in checks if function in (None, c.function) and family in (None, c.family))


@pytest.fixture(scope="module")
def handins(tmp_path_factory):
    """words.py of each zoo entry, in a folder of its own."""
    folder = tmp_path_factory.mktemp("handins")
    made = {}
    for entry in fixture_part("zoo").entries():
        (folder / entry.name).mkdir()
        made[entry.name] = folder / entry.name / "words.py"
        made[entry.name].write_text(entry.source(), encoding="utf-8")
    return made


def test_its_stubs_and_notebooks_are_generated_from_its_own_files():
    """make stubs and make notebooks work on any course: the fixture's generated files are up to date."""
    for module in ("autograder.authoring.stubs", "autograder.authoring.lessons"):
        done = run("-m", module, "--check")
        assert done.returncode == 0, done.stderr


def test_the_cli_grades_each_zoo_entry_on_its_own_families(handins, tmp_path):
    """The correct style earns everything; the misconception loses its family's points and no others."""
    for entry in fixture_part("zoo").entries():
        out = tmp_path / f"{entry.name}.json"
        done = run("-m", "autograder", "grade", str(handins[entry.name]), "--output", str(out))
        results = json.loads(out.read_text(encoding="utf-8"))
        lost = sum(points(family=family) for family in entry.fails)
        assert results["extra_data"]["max_score"] == points(), done.stdout
        assert results["score"] == points() - lost, (entry.name, done.stdout)
        failed = {t["name"].split("/")[0] for t in results["tests"] if t["score"] < t["max_score"]}
        assert failed == set(entry.fails), (entry.name, done.stdout)
