"""Broken and odd submissions: a clear SubmissionError naming the file and the fix, or a grade, never a crash.

Each hand-in is read as the CLI and the batch read it (grading/reading.py).

Every broken file is made in tmp_path from the reference, so each test shows exactly what is odd
about it. Grading uses the checks without the two long-graph families (deep_graph, linear_time):
what is odd here is the file, not the graph.
"""

import ast
import json
import os
from functools import lru_cache

import pytest

from autograder.course.lessons import functions, module_of
from autograder.course.paths import REFERENCE
from autograder.grading.reading import read
from autograder.grading.runner import grade
from autograder.grading.submission import MAX_FILE_BYTES, SubmissionError
from graphcourse import checks as check_table

FUNCTIONS = tuple(f for f in functions() if module_of(f) == "graph")  # these hand-ins are lessons 1 and 2's
LIGHT = [
    c for c in check_table.all_checks() if c.function in FUNCTIONS and c.family not in ("deep_graph", "linear_time")
]
FULL = {f: sum(c.points for c in LIGHT if c.function == f) for f in FUNCTIONS}
CANARY = "graphkit-canary-outside-the-submission"


# ---------------------------------------------------------------- building submissions
@lru_cache(maxsize=1)
def reference_parts():
    """The reference cut into notebook cells: {"setup": imports and OPS, "evaluate": its def, ...}."""
    source = REFERENCE.read_text()
    lines = source.splitlines(keepends=True)
    functions = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)]
    parts = {"setup": "".join(lines[: functions[0].lineno - 1])}
    for node in functions:
        parts[node.name] = "".join(lines[node.lineno - 1 : node.end_lineno])
    return parts


def code_cell(source, grade_id, solution=True, grade=False, points=0, outputs=()):
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": grade_id,
        "metadata": {
            "nbgrader": {
                "grade": grade,
                "grade_id": grade_id,
                "locked": False,
                "points": points,
                "schema_version": 3,
                "solution": solution,
                "task": False,
            }
        },
        "outputs": list(outputs),
        "source": source.splitlines(keepends=True),
    }


def lesson(names=("setup", *FUNCTIONS), outputs=()):
    """A v4 notebook: a markdown cell, then one answer cell per part of the reference, then a test cell."""
    parts = reference_parts()
    cells = [{"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# Computation graphs\n"]}]
    cells += [code_cell(parts[name], f"cell_{name}", outputs=outputs if name == "setup" else ()) for name in names]
    cells.append(
        code_cell("assert evaluate([], {'x': 1}) == {'x': 1}\n", "test_evaluate", solution=False, grade=True, points=5)
    )
    return {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def code_of(path):
    """The code a hand-in without a lesson notebook is graded on, as the grader reads it."""
    return read(path).code


def write_json(path, data):
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def points(result):
    by_function = dict.fromkeys(FUNCTIONS, 0.0)
    for r in result.results:
        by_function[r.check.function] += r.score
    return by_function


def per_check(result):
    return {r.check.id: r.score for r in result.results}


def assert_names_file_and_fix(err, path, *fix_words):
    message = str(err.value)
    assert str(path) in message, f"the message does not name the file: {message}"
    assert any(word in message for word in fix_words), f"the message does not say what to do: {message}"


# ---------------------------------------------------------------- files that cannot be read
def test_invalid_json_notebook(tmp_path):
    """A notebook that is not JSON: SubmissionError naming the file and telling to save it again in JupyterLab."""
    path = tmp_path / "lesson.ipynb"
    path.write_text("{ this is not json", encoding="utf-8")
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, "JupyterLab")
    assert "line 1" in str(err.value)


@pytest.mark.parametrize(
    "name, content", [("lesson.ipynb", ""), ("lesson.ipynb", " \n\t\n"), ("graph.py", ""), ("graph.py", "\n\n  \n")]
)
def test_empty_file(tmp_path, name, content):
    """An empty notebook or module: SubmissionError naming the file and saying it is empty."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, "empty")


def test_truncated_notebook(tmp_path):
    """A notebook cut off half way (an interrupted upload): SubmissionError with the line where the JSON breaks."""
    text = json.dumps(lesson(), indent=1)
    path = tmp_path / "lesson.ipynb"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, "JupyterLab")
    assert "not valid notebook JSON (line" in str(err.value)


@pytest.mark.parametrize("name", ["graph.py", "lesson.ipynb"])
def test_non_utf8_bytes(tmp_path, name):
    """A file saved in another encoding: SubmissionError naming the file, the byte, and UTF-8."""
    path = tmp_path / name
    good = reference_parts()["setup"].encode() if name.endswith(".py") else json.dumps(lesson()).encode()
    path.write_bytes(good[:40] + "# café".encode("latin-1") + good[40:])
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, "UTF-8")
    assert "byte " in str(err.value)


def test_symlink_to_a_file_outside_is_not_followed(tmp_path):
    """A link to a file outside the submission is never read: alone it is refused, in a folder it is skipped and
    noted."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "graph.py"
    secret.write_text(f"# {CANARY}\n" + REFERENCE.read_text())
    stolen = lesson()
    stolen["cells"].append(code_cell(f"# {CANARY}\n", "canary"))
    write_json(outside / "stolen.ipynb", stolen)

    link = tmp_path / "graph.py"
    link.symlink_to(secret)
    with pytest.raises(SubmissionError) as err:
        code_of(link)
    assert_names_file_and_fix(err, link, "hand in the file itself")

    only_links = tmp_path / "only_links"
    only_links.mkdir()
    (only_links / "graph.py").symlink_to(secret)
    with pytest.raises(SubmissionError) as err:
        code_of(only_links)
    assert "symbolic link" in str(err.value) and str(only_links) in str(err.value)

    mixed = tmp_path / "mixed"
    mixed.mkdir()
    write_json(mixed / "lesson.ipynb", lesson())
    (mixed / "stolen.ipynb").symlink_to(outside / "stolen.ipynb")
    (mixed / "linked_folder").symlink_to(outside, target_is_directory=True)
    handin = read(mixed)
    assert CANARY not in handin.code.source
    assert all("stolen" not in chunk.label and "linked_folder" not in chunk.label for chunk in handin.code.chunks)
    assert any("symbolic link ignored" in note for note in handin.notes)


def test_huge_code_cells_are_refused(tmp_path):
    """More code than the grader reads (data pasted into a cell): SubmissionError naming the file and the fix."""
    nb = lesson()
    nb["cells"].append(code_cell("DATA = " + repr("x" * (MAX_FILE_BYTES + 10)) + "\n", "pasted_data"))
    path = write_json(tmp_path / "lesson.ipynb", nb)
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, "remove the data")


MALFORMED = {
    "top level is a list": [1, 2, 3],
    "nbformat is a string": {"nbformat": "4", "cells": [code_cell("x = 1\n", "a")]},
    "nbformat is null": {"nbformat": None, "cells": [code_cell("x = 1\n", "a")]},
    "cells is a dict": {"nbformat": 4, "cells": {"a": 1}},
    "cells hold numbers": {"nbformat": 4, "cells": [1, "two", None, code_cell("x = 1\n", "a")]},
    "metadata is a list": {"nbformat": 4, "cells": [{**code_cell("x = 1\n", "a"), "metadata": [1, 2]}]},
    "nbgrader metadata is a string": {
        "nbformat": 4,
        "cells": [{**code_cell("x = 1\n", "a"), "metadata": {"nbgrader": "yes"}}],
    },
    "source holds numbers": {"nbformat": 4, "cells": [{**code_cell("x = 1\n", "a"), "source": [1, "x = 1\n", None]}]},
    "source is a dict": {"nbformat": 4, "cells": [{**code_cell("x = 1\n", "a"), "source": {"x": 1}}]},
    "v3 worksheets is a number": {"nbformat": 3, "worksheets": 7},
    "v3 worksheets hold junk": {
        "nbformat": 3,
        "worksheets": [1, {"cells": "x"}, {"cells": [5, {"cell_type": "code", "input": "x = 1\n"}]}],
    },
}


@pytest.mark.parametrize("shape", sorted(MALFORMED))
def test_malformed_notebook_structure_never_crashes(tmp_path, shape):
    """Valid JSON in the wrong shape: either a SubmissionError naming the file, or chunks to grade; never another
    exception."""
    path = write_json(tmp_path / "odd.ipynb", MALFORMED[shape])
    try:
        sub = code_of(path)
    except SubmissionError as err:
        assert str(path) in str(err)
    else:
        assert all(isinstance(chunk.code, str) for chunk in sub.chunks)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"nbformat": ' + "9" * 5000 + "}"])
def test_pathological_json_is_a_submission_error(tmp_path, text):
    """JSON nested 100,000 deep or holding a 5,000-digit number: SubmissionError, not a RecursionError or ValueError."""
    path = tmp_path / "odd.ipynb"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, "JupyterLab")


# ---------------------------------------------------------------- files that grade
@pytest.mark.slow
def test_syntax_error_module_grades_zero_with_the_line(tmp_path):
    """A module with a syntax error grades 0, and its load error says SyntaxError and the line."""
    path = tmp_path / "graph.py"
    path.write_text("import math\n\ndef evaluate(graph, leaves)\n    return {}\n", encoding="utf-8")
    result = grade(code_of(path), checks=LIGHT)
    assert result.score == 0
    assert result.load_errors and result.load_errors[0]["type"] == "SyntaxError"
    assert "line 3" in result.load_errors[0]["message"] + result.load_errors[0].get("where", "")


@pytest.mark.slow
def test_byte_order_mark_still_grades(tmp_path):
    """A module saved with a UTF-8 byte-order mark grades like the same module without one."""
    path = tmp_path / "graph.py"
    path.write_bytes(b"\xef\xbb\xbf" + REFERENCE.read_bytes())
    result = grade(code_of(path), checks=LIGHT)
    assert points(result) == FULL, result.load_errors


@pytest.mark.slow
def test_old_nbformat_v3_still_grades(tmp_path):
    """A notebook in the old v3 format (worksheets, 'input' instead of 'source') is read and grades full marks, with a
    note."""
    parts = reference_parts()
    cells = [{"cell_type": "markdown", "source": ["# Computation graphs\n"]}]
    cells += [
        {"cell_type": "code", "input": parts[name].splitlines(keepends=True), "language": "python", "outputs": []}
        for name in ("setup", *FUNCTIONS)
    ]
    path = write_json(
        tmp_path / "lesson.ipynb",
        {"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": cells}]},
    )
    sub = code_of(path)
    assert any("v3" in note for note in sub.notes)
    assert points(grade(sub, checks=LIGHT)) == FULL


@pytest.mark.slow
def test_huge_outputs_still_grade(tmp_path):
    """A notebook whose saved outputs make it larger than a module may be (a plot, a long print) still grades full
    marks."""
    output = {
        "output_type": "stream",
        "name": "stdout",
        "text": ["x" * 1_000_000 + "\n"] * ((2 * MAX_FILE_BYTES) // 1_000_000),
    }
    path = write_json(tmp_path / "lesson.ipynb", lesson(outputs=[output]))
    assert path.stat().st_size > 2 * MAX_FILE_BYTES
    assert points(grade(code_of(path), checks=LIGHT)) == FULL


@pytest.mark.slow
def test_two_candidate_notebooks(tmp_path):
    """Two notebooks in one folder are both read: split lessons earn full marks; a stray copy never crashes and its
    broken cell is named."""
    split = tmp_path / "split"
    split.mkdir()
    write_json(split / "lesson1.ipynb", lesson(("setup", "evaluate", "inputs_of", "users_of")))
    write_json(split / "lesson2.ipynb", lesson(("setup", "backward")))
    assert points(grade(code_of(split), checks=LIGHT)) == FULL

    copies = tmp_path / "copies"
    copies.mkdir()
    write_json(copies / "lesson.ipynb", lesson())
    stray = lesson()
    stray["cells"].insert(2, code_cell("def evaluate(graph, leaves)\n    return {}\n", "broken"))
    write_json(copies / "lesson-Copy1.ipynb", stray)
    first, second = grade(code_of(copies), checks=LIGHT), grade(code_of(copies), checks=LIGHT)
    assert per_check(first) == per_check(second), "two gradings of the same folder differ"
    assert [e for e in first.load_errors if e["type"] == "SyntaxError" and "lesson-Copy1.ipynb" in e["label"]]


@pytest.mark.slow
def test_answer_cell_turned_markdown(tmp_path):
    """An answer cell retyped as markdown is not run: its function earns 0, the others full marks, and a note names the
    cell."""
    nb = lesson()
    backward_cell = next(c for c in nb["cells"] if c.get("id") == "cell_backward")
    backward_cell["cell_type"] = "markdown"
    del backward_cell["outputs"], backward_cell["execution_count"]
    path = write_json(tmp_path / "lesson.ipynb", nb)
    sub = code_of(path)
    assert any("turned into a markdown cell" in note for note in sub.notes), sub.notes
    assert points(grade(sub, checks=LIGHT)) == {**FULL, "backward": 0}


@pytest.mark.slow
def test_changed_nbgrader_metadata_does_not_matter(tmp_path):
    """Raised points, duplicated grade ids and other edited nbgrader metadata change nothing: the grader scores only its
    own checks."""
    plain = write_json(tmp_path / "plain.ipynb", lesson())
    nb = lesson()
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader")
        if meta:
            meta.update(points=1000, grade_id="same_id", locked=True, checksum="0" * 32)
    edited = write_json(tmp_path / "edited.ipynb", nb)
    assert per_check(grade(code_of(edited), checks=LIGHT)) == per_check(grade(code_of(plain), checks=LIGHT))


@pytest.mark.slow
def test_code_too_deep_to_parse_in_a_folder(tmp_path):
    """A folder whose graph.py nests too deeply to parse does not crash loading; the other files still grade."""
    folder = tmp_path / "deep"
    (folder / "exercises").mkdir(parents=True)
    (folder / "exercises" / "graph.py").write_text("x = " + "+".join(["1"] * 200_000) + "\n", encoding="utf-8")
    write_json(folder / "lesson.ipynb", lesson())
    sub = code_of(folder)
    assert len(sub.chunks) > 1
    assert points(grade(sub, checks=LIGHT)) == FULL


def test_a_folder_with_nothing_to_grade(tmp_path):
    """A folder without a notebook or graph.py: SubmissionError naming the folder and what to hand in."""
    (tmp_path / "notes.txt").write_text("nothing here")
    with pytest.raises(SubmissionError) as err:
        code_of(tmp_path)
    assert_names_file_and_fix(err, tmp_path, "hand in")


def test_unknown_file_type(tmp_path):
    """A file that is neither a module nor a notebook: SubmissionError naming it and the kinds accepted."""
    path = tmp_path / "graph.txt"
    path.write_text(REFERENCE.read_text())
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, ".py module")


def test_missing_path(tmp_path):
    """A path that does not exist: SubmissionError naming it."""
    path = tmp_path / "nowhere.py"
    with pytest.raises(SubmissionError) as err:
        code_of(path)
    assert_names_file_and_fix(err, path, "check the path")
    assert not os.path.exists(path)
