"""The learner bundle's `make lab`: JupyterLab starts as root too, with nbgrader's Validate button and no instructor
tools
(no Nbgrader menu either: it holds only those), and its first setup says what it is doing.

tests/e2e/ starts it for real in a browser (`make e2e`); these read what make would run.
"""

import os
import re
import shutil
import subprocess

import pytest

from autograder.authoring.learner_files import learner_files
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")


@pytest.fixture(scope="module")
def learner(tmp_path_factory):
    """The graph course's bundle's own files (its learner/ folder and the kit's skeleton), in a folder of their own."""
    folder = tmp_path_factory.mktemp("learner")
    for name, data in learner_files(ROOT, ROOT / "solutions", ROOT / "notebooks").items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def dry_run(learner, *args):
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", *args],
        cwd=learner,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_lab_allows_root_exactly_when_run_as_root(learner):
    """Jupyter refuses root without --allow-root: the bundle's Makefile adds it for uid 0 and only then."""
    lab = dry_run(learner, "lab").splitlines()[-1]
    expected = "--allow-root notebooks" if os.geteuid() == 0 else "jupyter lab notebooks"
    assert lab.startswith(".venv/bin/python -m jupyter lab") and lab.endswith(expected), lab


def test_learner_environment_has_nbgrader_for_validate_and_switches_instructor_tools_off(learner):
    """requirements.txt pins the kit's nbgrader; setting up turns off its formgrader, lists and assignment creator."""
    kit = re.search(r'"(nbgrader==[^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8")).group(1)
    assert kit in (learner / "requirements.txt").read_text(encoding="utf-8").split()
    setup = dry_run(learner, "lab")
    for server in ("formgrader", "assignment_list", "course_list"):
        assert f"nbgrader.server_extensions.{server}" in setup
    for lab in ("formgrader", "assignment-list", "course-list", "create-assignment", "menu"):
        assert f"@jupyter/nbgrader:{lab}" in setup, f"{lab}: its Nbgrader menu would open empty or dead in the bundle"
    assert "validate" not in setup, "the Validate button must stay"


def test_the_first_setup_announces_itself_before_installing(learner):
    """A fresh bundle's first `make check` says it is setting up, and that it happens once, before the install runs
    quietly."""
    lines = dry_run(learner, "check").splitlines()
    pip = next(i for i, line in enumerate(lines) if "pip install" in line)
    said = [line for line in lines[:pip] if line.startswith("echo ")]
    assert said and "setting up .venv" in said[0] and "once" in said[0], lines[:pip]
