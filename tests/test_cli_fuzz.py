"""Hostile folder and notebook shapes through `python -m autograder grade --output`: results, never a traceback.

Each shape is a hand-in built in a temporary folder: folders thousands deep or with names too
long to open, notebooks nested past what Jupyter saves, grade ids of every JSON type, code too
deep for the grader's parser, bytes that are not UTF-8, links, pipes; then seeded random JSON
put into a lesson notebook's cells, metadata and outputs. Every one goes through the CLI in this
process (cli.main, as __main__ calls it), and must leave a results file that parses, worth 0
when the hand-in could not be read, whose message names the file and says what to do, with no
traceback and none of the kit's or the grading machine's folders in anything printed or
written. The sandbox is not what these shapes attack: the grading step is replaced by one that
records what it was given (plain strings) and scores 0, so every shape costs milliseconds. One
test at the end runs the real CLI, as its own process, on a folder of several hostile shapes.
"""

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder import cli
from autograder.course.lessons import LESSONS
from autograder.grading import reading, runner
from autograder.grading.reading import MAX_FOLDER_DEPTH
from tests.conftest import REFERENCE_SOURCE, ROOT

LESSON = LESSONS[0]
SOURCE_NB = json.loads(LESSON.notebook_path().read_text(encoding="utf-8"))
FIX_WORDS = ("hand it in again", "hand in", "hand them in again", "check the path", "save")
SEED = 20240524
CHAIN = 1_200  # folders: more than Python's recursion limit, which stopped rglob, os.walk and rmtree


@pytest.fixture
def graded_by_nothing(monkeypatch):
    """The grading step replaced: it checks every chunk is plain text, and scores nothing (no sandbox starts)."""
    seen = []

    def fake_grade(submission, checks=None, limits=None, first=None, shrink=True):
        assert all(isinstance(c.label, str) and isinstance(c.code, str) for c in submission.chunks)
        seen.append(submission)
        return runner.Grade(origin=str(submission.origin), results=[], notes=list(submission.notes), also={})

    monkeypatch.setattr(runner, "grade", fake_grade)
    monkeypatch.setattr(cli, "isolation_mode", lambda: "full")
    return seen


def run_cli(path, out, capsys):
    """(exit code, results, everything printed) of `grade PATH --output OUT` run in this process."""
    code = cli.main(["grade", str(path), "--output", str(out)])
    printed = capsys.readouterr()
    results = json.loads(out.read_text(encoding="utf-8"))
    return code, results, printed.out + printed.err


def assert_clean(text, base):
    assert "Traceback" not in text and 'File "' not in text, text[-2000:]
    assert str(ROOT) not in text, "the kit's own folder is shown"
    assert str(base) not in text, "the grading machine's folders are shown"


def assert_refused(code, results, text, base, named):
    """Exit 2, results worth 0 that name the file and a fix, nothing that shows the grader's insides."""
    assert code == cli.EXIT_CANNOT_GRADE, text
    assert results["score"] == 0 and results["tests"] == []
    assert named in results["output"], results["output"]
    assert any(word in results["output"] for word in FIX_WORDS), results["output"]
    assert_clean(json.dumps(results) + text, base)


def lesson_notebook(**changes):
    nb = json.loads(json.dumps(SOURCE_NB))
    nb.update(changes)
    return nb


def nested(depth, leaf=1):
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


def deep_chain(base, depth, name="d"):
    """base/d/d/.../d, ``depth`` folders, made through descriptors (its full path may be too long to name); the last."""
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            fd, parent = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd), fd
            os.close(parent)
        return fd
    except BaseException:
        os.close(fd)
        raise


def remove_chain(base, name="d"):
    """Remove base/d/d/... without recursion (shutil.rmtree recurses, and pytest's clean-up with it): again and again,
    move base/d/d up beside base/d, empty base/d of files, remove it, and put the rest of the chain in its place."""
    top, spare = os.path.join(base, name), os.path.join(base, "spare")
    while os.path.isdir(top):
        below = os.path.join(top, name)
        if os.path.isdir(below):
            os.rename(below, spare)
        for entry in os.listdir(top):
            os.unlink(os.path.join(top, entry))
        os.rmdir(top)
        if os.path.isdir(spare):
            os.rename(spare, top)


@pytest.fixture
def workdir(tmp_path):
    """A fresh folder for one test's hand-ins, removed after it (its hand-in's folder chain without recursion): on
    /dev/shm where there is one, since a 1,200-folder chain costs 0.05 s to make there, and 1 s (6 s to remove) on
    some disks."""
    shm = "/dev/shm"
    base = Path(tempfile.mkdtemp(prefix="graphkit-fuzz-", dir=shm)) if os.access(shm, os.W_OK) else tmp_path / "work"
    base.mkdir(exist_ok=True)
    yield base
    if (base / "handin").is_dir():
        remove_chain(base / "handin")
    shutil.rmtree(base)


def put(fd, name, data):
    out = os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    with os.fdopen(out, "wb") as handle:
        handle.write(data)


# ---------------------------------------------------------------- hand-ins that cannot be read


def _deep_expression(folder):
    (folder / "exercises").mkdir()
    (folder / "exercises" / "graph.py").write_text("x = " + "+".join(["1"] * 10_000) + "\n")
    return "graph.py"


def _deep_metadata(folder):
    nb = lesson_notebook()
    nb["cells"][1]["metadata"]["deep"] = nested(700)
    (folder / LESSON.notebook).write_text(json.dumps(nb))
    return LESSON.notebook


def _deep_outputs(folder):
    nb = lesson_notebook()
    nb["cells"][-1]["outputs"] = [{"output_type": "display_data", "data": nested(150), "metadata": {}}]
    (folder / "work.ipynb").write_text(json.dumps(nb))
    return "work.ipynb"


def _json_too_deep_to_parse(folder):
    (folder / "graph.ipynb").write_text("[" * 50_000 + "]" * 50_000)
    return "graph.ipynb"


def _deep_folder_only(folder):
    fd = deep_chain(folder, CHAIN)
    try:
        put(fd, "graph.py", REFERENCE_SOURCE.encode())
    finally:
        os.close(fd)
    return "folders more than"


def _names_too_long_to_open(folder):
    fd = deep_chain(folder, MAX_FOLDER_DEPTH, name="n" * 255)  # 16 x 256 characters: past PATH_MAX with the base
    try:
        put(fd, "graph.py", REFERENCE_SOURCE.encode())
    finally:
        os.close(fd)
    return "File name too long"


def _not_utf8(folder):
    (folder / "graph.py").write_bytes(b"def evaluate(graph, inputs):\n    return '\xff\xfe'\n")
    return "graph.py"


def _undecodable_name(folder):
    (folder / os.fsdecode(b"\xff\xfe.ipynb")).write_bytes(b"\x00\x01 not json")
    return ".ipynb"


def _empty_module(folder):
    (folder / "graph.py").write_text("   \n")
    return "graph.py"


def _module_is_a_folder(folder):
    (folder / "graph.py").mkdir()
    (folder / "graph.py" / "notes.txt").write_text("nothing")
    return "handin"


def _module_is_a_pipe(folder):
    os.mkfifo(folder / "graph.py")
    return "graph.py"


def _link_out(folder):
    (folder / "graph.py").symlink_to(ROOT / "solutions" / "graph.py")
    (folder / LESSON.notebook).symlink_to(LESSON.notebook_path())
    return "symbolic link"


def _top_level_list(folder):
    (folder / "graph.ipynb").write_text("[1, 2, 3]")
    return "graph.ipynb"


def _cells_not_a_list(folder):
    (folder / "graph.ipynb").write_text(json.dumps({"nbformat": 4, "cells": {"a": 1}}))
    return "graph.ipynb"


def _huge_number(folder):
    (folder / "graph.ipynb").write_text('{"nbformat": ' + "9" * 5_000 + "}")
    return "graph.ipynb"


def _truncated_lesson(folder):
    (folder / LESSON.notebook).write_text(json.dumps(SOURCE_NB)[:5_000])
    return LESSON.notebook


def _only_markdown(folder):
    (folder / "graph.ipynb").write_text(
        json.dumps({"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "x"}]})
    )
    return "graph.ipynb"


UNREADABLE = {
    "graph.py 10,000 terms deep": _deep_expression,
    "cell metadata 700 deep": _deep_metadata,
    "outputs 150 deep": _deep_outputs,
    "JSON 50,000 deep": _json_too_deep_to_parse,
    "graph.py 1,200 folders down": _deep_folder_only,
    "folder names too long to open": _names_too_long_to_open,
    "graph.py not UTF-8": _not_utf8,
    "a notebook named in bytes that are not UTF-8": _undecodable_name,
    "empty graph.py": _empty_module,
    "graph.py is a folder": _module_is_a_folder,
    "graph.py is a pipe": _module_is_a_pipe,
    "links to the kit's files": _link_out,
    "a notebook that is a list": _top_level_list,
    "cells that are not a list": _cells_not_a_list,
    "a 5,000-digit number": _huge_number,
    "a truncated lesson notebook": _truncated_lesson,
    "no code cells": _only_markdown,
}


@pytest.mark.parametrize("shape", list(UNREADABLE))
def test_a_hand_in_that_cannot_be_read_gets_results_worth_0(shape, workdir, capsys, graded_by_nothing):
    folder = workdir / "handin"
    folder.mkdir()
    named = UNREADABLE[shape](folder)
    code, results, text = run_cli(folder, workdir / "results.json", capsys)
    if code == cli.EXIT_GRADED:  # a lesson notebook read as a problem: graded, that lesson worth 0
        assert results["score"] == 0 and named in results["output"], results["output"]
        assert_clean(json.dumps(results) + text, workdir)
    else:
        assert_refused(code, results, text, workdir, named)


def test_a_single_file_that_cannot_be_read(workdir, capsys, graded_by_nothing):
    """The same as a path of its own: a deep module, a deep notebook, a name with no file behind it."""
    deep = workdir / "graph.py"
    deep.write_text("y = " + "+".join(["y"] * 10_000) + "\n")
    notebook = workdir / LESSON.notebook
    nb = lesson_notebook()
    nb["cells"][0]["metadata"] = nested(700)
    notebook.write_text(json.dumps(nb))
    for path, named in [(deep, "graph.py"), (notebook, LESSON.notebook), (workdir / "nothing.ipynb", "nothing.ipynb")]:
        code, results, text = run_cli(path, workdir / "results.json", capsys)
        assert_refused(code, results, text, workdir, named)
    assert not graded_by_nothing


def test_a_file_the_grader_may_not_open_is_named_with_the_reason(workdir, capsys, graded_by_nothing, monkeypatch):
    """A hand-in file the grader's user may not read (root reads every file, so the refusal is put in its place)."""

    def refused(path, *args):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(reading, "read_notebook_json", refused)
    folder = workdir / "handin"
    folder.mkdir()
    (folder / "mine.ipynb").write_text(json.dumps(lesson_notebook()))
    code, results, text = run_cli(folder, workdir / "results.json", capsys)
    assert_refused(code, results, text, workdir, "mine.ipynb: cannot be read (Permission denied)")


# ---------------------------------------------------------------- odd shapes that still grade


def _json_value(rng, depth=0):
    """A random JSON value: every type, strings with odd characters, nesting up to 6."""
    kind = rng.randrange(9 if depth < 6 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 10**30, 2**63])
    if kind == 3:
        return rng.choice([0.5, -1e308, 1e-300])
    if kind in (4, 5):
        return rng.choice(
            ["", "x = 1\n", "\u202eevil", "\ud800", "grade", "cell_evaluate", "%%bash\n", "\x00", "é" * 50]
        )
    if kind in (6, 7):
        return [_json_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["nbgrader", "grade_id", "points", "solution", "grade", "source", "cell_type", "metadata", "outputs", "x"]
    return {rng.choice(keys): _json_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def random_notebook(rng):
    """The lesson notebook with random JSON put into a few places: a cell's fields, its metadata, the top level."""
    nb = lesson_notebook()
    for _ in range(rng.randrange(1, 5)):
        cells = nb["cells"] if isinstance(nb["cells"], list) else []
        dicts = [cell for cell in cells if isinstance(cell, dict)]
        place = rng.randrange(6)
        if place == 0 and dicts:
            rng.choice(dicts)["metadata"] = {"nbgrader": _json_value(rng)}
        elif place == 1 and dicts:
            rng.choice(dicts)[rng.choice(["source", "cell_type", "outputs", "metadata"])] = _json_value(rng)
        elif place == 2 and cells:
            cells[rng.randrange(len(cells))] = _json_value(rng)
        elif place == 3:
            nb[rng.choice(["metadata", "nbformat", "worksheets", "x"])] = _json_value(rng)
        elif place == 4:
            nb["cells"] = _json_value(rng)
        else:
            cells.insert(rng.randrange(len(cells) + 1), _json_value(rng))
    return nb


def test_random_notebook_shapes_never_crash_the_cli(workdir, capsys, graded_by_nothing):
    """16 seeded random shapes, some beside a graph.py: results that parse, exit 0 or 2, no traceback."""
    rng = random.Random(SEED)
    outcomes = set()
    for number in range(16):
        folder = workdir / f"handin{number}"
        folder.mkdir()
        name = LESSON.notebook if number % 2 else "mine.ipynb"
        (folder / name).write_text(json.dumps(random_notebook(rng)), encoding="utf-8", errors="surrogatepass")
        if number % 4 == 3:
            (folder / "graph.py").write_text(REFERENCE_SOURCE)
        code, results, text = run_cli(folder, workdir / "results.json", capsys)
        assert code in (cli.EXIT_GRADED, cli.EXIT_CANNOT_GRADE), text
        assert isinstance(results["score"], (int, float)) and isinstance(results["output"], str)
        assert results["output"].startswith((f"handin{number}", name, "Your hand-in could not be graded")), results[
            "output"
        ]
        if code == cli.EXIT_CANNOT_GRADE:
            assert results["score"] == 0 and name in results["output"], results["output"]
        assert_clean(json.dumps(results) + text, workdir)
        outcomes.add(code)
    assert outcomes == {cli.EXIT_GRADED, cli.EXIT_CANNOT_GRADE}, "the shapes should both grade and be refused"


def test_odd_grade_ids_and_a_deep_folder_beside_good_work_still_grade(workdir, capsys, graded_by_nothing):
    """Grade ids of every JSON type and a folder chain past the depth looked in do not stop graph.py from grading."""
    folder = workdir / "handin"
    folder.mkdir()
    nb = lesson_notebook()
    for cell, grade_id in zip(nb["cells"], [["a"], {"b": 1}, 7, None, 2.5, True]):
        cell.setdefault("metadata", {})["nbgrader"] = {"grade_id": grade_id, "solution": True, "grade": True}
    (folder / "mine.ipynb").write_text(json.dumps(nb))
    (folder / "graph.py").write_text(REFERENCE_SOURCE)
    os.close(deep_chain(folder, MAX_FOLDER_DEPTH + 4))
    code, results, text = run_cli(folder, workdir / "results.json", capsys)
    assert code == cli.EXIT_GRADED, text
    assert f"folders more than {MAX_FOLDER_DEPTH} deep" in results["output"]
    assert any(c.label == "graph.py" for s in graded_by_nothing for c in s.chunks)
    assert_clean(json.dumps(results) + text, workdir)


# ---------------------------------------------------------------- the real CLI, as a grading job runs it


def test_the_cli_process_on_a_hostile_folder(workdir):
    """The CLI as its own process, at full isolation where this machine has it, on a folder holding deep code, a deep
    notebook, a deep folder and a link out: exit 2, results worth 0 naming the files, stderr with no traceback."""
    folder = workdir / "handin"
    folder.mkdir()
    _deep_expression(folder)
    _deep_outputs(folder)
    os.close(deep_chain(folder, CHAIN))
    (folder / "graph.ipynb").symlink_to(LESSON.notebook_path())
    out = workdir / "out" / "results.json"
    run = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(folder), "--output", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == cli.EXIT_CANNOT_GRADE, run.stderr
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["score"] == 0
    for named in ("graph.py", "work.ipynb", "folders more than", "graph.ipynb: symbolic link ignored"):
        assert named in results["output"], results["output"]
    assert "isolation" in results["extra_data"]
    assert_clean(json.dumps(results) + run.stdout + run.stderr, workdir)
    assert [p.name for p in out.parent.iterdir()] == ["results.json"], "a temporary file was left beside the results"
