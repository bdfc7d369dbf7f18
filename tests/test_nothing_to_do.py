"""Nothing to do costs nothing: make grade's command (autograder/pipeline/grade.py) answers a run with no change, and a
refusal, before importing nbgrader, and leaves every file of OUT exactly as it was.

The graded run is a subprocess on one learner's one lesson, as make grade runs it; the rest reads the small modules
(unchanged.py, refusals.py) directly.
"""

import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile

import pytest

from autograder.course.lessons import LESSONS
from autograder.pipeline import grade as command
from autograder.pipeline import refusals, unchanged
from graphcourse import demo
from tests.conftest import ROOT, prepared_course

COMMAND = [sys.executable, "-X", "importtime", "-m", "autograder.pipeline.grade"]


def snapshot(out):
    """{relative path: (content hash, modification time)} of every file under out, its cache and logs included."""
    return {
        path.relative_to(out).as_posix(): (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
        for path in sorted(out.rglob("*")) if path.is_file()
    }


def imported(stderr):
    """The modules a run imported, from what ``python -X importtime`` wrote."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def run(*args, cwd=ROOT):
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=900)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """One learner's first lesson graded by make grade's command, then the same command run again unchanged."""
    root = tmp_path_factory.mktemp("unchanged")
    out, handed_in = root / "out", root / "handed_in"
    course = prepared_course(out, io.StringIO())
    demo.build(handed_in, out / "release", course.due_dates(),
               cohort=(demo.Learner("ada", "everything right", through=1),))
    first = run("--out", out, "--submissions", handed_in, "--workers", "1")
    before = snapshot(out)
    second = run("--out", out, "--submissions", handed_in, "--workers", "1")
    return out, handed_in, first, second, before, snapshot(out)


@pytest.mark.slow
def test_a_run_with_no_change_imports_no_nbgrader_and_writes_nothing(graded):
    out, _handed_in, first, second, before, after = graded
    assert first.returncode == 0, first.stderr[-2000:]
    assert "nbgrader" in imported(first.stderr) and (out / "cache" / unchanged.NAME).is_file()
    assert second.returncode == 0, second.stderr[-2000:]
    modules = imported(second.stderr)
    assert not {m for m in modules if m.split(".")[0] in ("nbgrader", "nbformat", "nbconvert", "jupyter_server")}
    assert after == before, "the run with no change wrote a file"
    table = first.stdout.rsplit("\n\n", 1)[0]
    assert second.stdout.rsplit("\n\n", 1)[0] == table and "ada" in table
    assert second.stdout.rstrip().splitlines()[-1].startswith(f"{command.NOTHING};")


@pytest.mark.slow
def test_a_change_to_a_hand_in_or_an_output_is_seen(graded):
    """The answer is kept only for the same hand-ins' content and an OUT as the last run left it."""
    out, handed_in, *_ = graded
    digest = unchanged.inputs(handed_in)
    assert unchanged.answer(out, digest) is not None
    assert unchanged.answer(out, unchanged.inputs(handed_in, db_url="sqlite:///elsewhere.db")) is None
    notebook = next(handed_in.rglob("*.ipynb"))
    text = notebook.read_text(encoding="utf-8")
    notebook.write_text(text + " ", encoding="utf-8")
    try:
        assert unchanged.inputs(handed_in) != digest
    finally:
        notebook.write_text(text, encoding="utf-8")
    assert unchanged.inputs(handed_in) == digest
    grades = out / "grades.csv"
    kept, stat = grades.read_bytes(), grades.stat()
    grades.write_bytes(kept + b"\n")
    try:
        assert unchanged.answer(out, digest) is None
    finally:
        grades.write_bytes(kept)
        os.utime(grades, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert unchanged.answer(out, digest) is not None


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
        ["download.zip", "real.zip"])


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
