"""Nothing to do costs nothing: make grade's command (autograder/pipeline/grade.py) refuses an input that is not there
before importing nbgrader, and writes nothing; a folder whose gradebook is a database's is never taken as unchanged.

A run with nothing to do after a graded cohort is tested in test_batch.py, on the cohort its module fixture grades.
"""

import json
import subprocess
import sys
import zipfile

import pytest

from autograder.course.lessons import LESSONS
from autograder.pipeline import refusals, unchanged
from tests.conftest import ROOT

COMMAND = [sys.executable, "-X", "importtime", "-m", "autograder.pipeline.grade"]


def imported(stderr):
    """The modules a run imported, from what ``python -X importtime`` wrote."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def run(*args, cwd=ROOT):
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_a_gradebook_in_a_database_is_never_taken_as_unchanged(tmp_path):
    assert unchanged.uses_a_database(tmp_path, "postgresql://grader@db/course")
    (tmp_path / "nbgrader_config.py").write_text(f"{unchanged.DB_SETTING} = 'postgresql://grader@db/course'\n")
    assert unchanged.uses_a_database(tmp_path)
    assert not unchanged.uses_a_database(tmp_path / "elsewhere")


@pytest.mark.parametrize("case", ["no folder", "not a zip", "no zip", "unknown assignment", "inside submitted"])
def test_a_refusal_comes_before_nbgrader_and_writes_nothing(tmp_path, case):
    out = tmp_path / "out"
    bad = tmp_path / "download.zip"
    bad.write_bytes(b"PK not really a zip")
    good = tmp_path / "real.zip"
    with zipfile.ZipFile(good, "w") as archive:
        archive.writestr("ada_1_2_x.ipynb", "{}")
    args = {
        "no folder": ["--submissions", tmp_path / "nowhere"],
        "not a zip": ["--zip", bad],
        "no zip": ["--zip", tmp_path / "missing.zip"],
        "unknown assignment": ["--zip", good, "--assignment", "lesson99"],
        "inside submitted": ["--submissions", out / "submitted" / "ada"],
    }[case]
    if case == "inside submitted":
        (out / "submitted" / "ada").mkdir(parents=True)
    done = run("--out", out, *args)
    assert done.returncode == 2
    message = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(message) == 1 and refusals.of_batch(out, *_sources(args)) in message[0]
    assert not {m for m in imported(done.stderr) if m.split(".")[0] in ("nbgrader", "nbformat")}
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == sorted(
        ["download.zip", "real.zip"]
    )


def _sources(args):
    named = dict(zip(args[::2], args[1::2]))
    return named.get("--submissions"), named.get("--zip"), named.get("--assignment")


def test_another_cohorts_folder_is_refused(tmp_path):
    out = tmp_path / "out"
    (out / "submitted" / "ada" / LESSONS[0].assignment).mkdir(parents=True)
    (out / "cache").mkdir()
    (out / "cache" / "state.json").write_text(json.dumps({"input": "demo"}))
    handed_in = tmp_path / "handed_in"
    handed_in.mkdir()
    assert "holds the grades of another cohort (demo)" in refusals.of_batch(out, submissions=handed_in)
    assert refusals.of_batch(out) == ""


def test_the_front_imports_the_batch_one_way():
    """grade.py (make grade's front) imports the batch when there is work; the batch never imports the front."""
    import ast

    def imported_names(module):
        tree = ast.parse((ROOT / "autograder" / "pipeline" / f"{module}.py").read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {f"{node.module}.{alias.name}" for alias in node.names} | {node.module}
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        return found

    assert "autograder.pipeline.batch" in imported_names("grade")
    assert not {"autograder.pipeline.grade"} & imported_names("batch")
    assert not {"autograder.pipeline.grade", "autograder.pipeline.batch"} & imported_names("command")
