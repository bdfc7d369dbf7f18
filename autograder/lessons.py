"""Build the nbgrader source notebooks from the lesson files and the reference.

    python -m autograder.lessons          # rewrite notebooks/source/*/*.ipynb
    python -m autograder.lessons --check  # exit 1 if a committed notebook is out of date

The prose and the hand-written cells of each lesson live in a text file under
notebooks/lessons/. The cells that define ``OPS`` and the four functions are
cut out of solutions/graph.py at build time, solution markers included, so the
notebooks always carry the reference and never a copy of it.

Lesson file format. A line ``%%% KIND [GRADE_ID] [NAME ...]`` opens a cell;
the lines up to the next such line are its source, with blank lines at either
end dropped. Text before the first such line is a note for authors and is
skipped. The kinds are:

    %%% markdown                      prose, no nbgrader metadata
    %%% code                          an ungraded code cell the learner may edit
    %%% answer GRADE_ID               a solution cell; the answer sits in a solution region
    %%% tests GRADE_ID                an autograded test cell worth POINTS[GRADE_ID]
    %%% reference GRADE_ID NAME ...   the top-level definitions NAME ... of the reference,
                                      in that order (the body stays empty); a solution cell
                                      if they hold a solution region, else a read-only cell

Output is deterministic: nbformat 4.5, no outputs, a fixed python3 kernelspec,
and cell ids taken from the grade id (or from the cell's position).
"""

import argparse
import ast
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "solutions" / "graph.py"
NOTEBOOKS = ROOT / "notebooks"


def _check_points(function):
    """The points of the hidden checks on one function: its grade cell is worth exactly these."""
    from autograder.checks import all_checks

    total = sum(check.points for check in all_checks() if check.function == function)
    return int(total) if float(total).is_integer() else total


# Points of every autograded test cell, by grade id. Answer checks are worth one point each;
# a function's cell is worth what its hidden checks in autograder/checks/ add up to.
POINTS = {
    # Lesson 1: computation graphs
    "answer_order": 1,
    "answer_inputs_of_q": 1,
    "answer_fan_out_node": 1,
    "answer_edge_count": 1,
    "answer_multiple_choice": 1,
    "evaluate_correct": _check_points("evaluate"),
    "inputs_of_correct": _check_points("inputs_of"),
    "users_of_correct": _check_points("users_of"),
    # Lesson 2: the backward sweep
    "answer_assign_instead_of_add": 1,
    "backward_correct": _check_points("backward"),
}


@dataclass(frozen=True)
class Lesson:
    """One nbgrader assignment: the lesson file it is built from and the notebook it becomes."""

    assignment: str  # folder under notebooks/source/, the nbgrader assignment id
    notebook: str  # file name of the notebook inside that folder
    text: str  # lesson file under notebooks/lessons/

    def notebook_path(self, notebooks: Path) -> Path:
        return notebooks / "source" / self.assignment / self.notebook

    def text_path(self, notebooks: Path) -> Path:
        return notebooks / "lessons" / self.text


LESSONS = (
    Lesson("lesson1_graphs", "computation_graphs.ipynb", "lesson1_graphs.txt"),
    Lesson("lesson2_backward", "backward_sweep.ipynb", "lesson2_backward.txt"),
)

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"name": "python"}

SOLUTION_MARK = "### BEGIN SOLUTION"
_HEADER = re.compile(r"^%%% ?(.*)$")
KINDS = ("markdown", "code", "answer", "tests", "reference")


class LessonError(ValueError):
    """A lesson file or the reference cannot be turned into a notebook."""


# ---------------------------------------------------------------- the reference


def _defined_names(node):
    """The top-level names a statement binds (imports, assignments, functions, classes)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
        return [node.target.id]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    return []


def _indent(line):
    return len(line) - len(line.lstrip())


def reference_blocks(text):
    """Map each top-level name of the reference to the exact source lines that define it.

    A block runs from the statement's first line (decorators included) to its
    last, takes along the comment lines directly above it, and the indented
    comment lines right after it: the AST ends a function at its last
    statement, but a closing ``### END SOLUTION`` marker belongs to its body.
    """
    lines = text.splitlines()
    blocks = {}
    for node in ast.parse(text).body:
        names = _defined_names(node)
        if not names:
            continue
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        while start > 0 and lines[start - 1].lstrip().startswith("#"):
            start -= 1
        end = node.end_lineno
        while end < len(lines) and lines[end].lstrip().startswith("#") and _indent(lines[end]) > node.col_offset:
            end += 1
        source = "\n".join(lines[start:end])
        for name in names:
            blocks[name] = source
    return blocks


# ---------------------------------------------------------------- lesson files


@dataclass(frozen=True)
class CellSpec:
    kind: str
    args: tuple
    source: str
    line: int  # line of the header in the lesson file, for error messages


def parse_lesson(text, where="<lesson>"):
    """Split a lesson file into cell specs; raise LessonError naming the line of any mistake."""
    specs = []
    header = None
    body = []

    def close():
        if header is not None:
            kind, args, line = header
            specs.append(CellSpec(kind, args, "\n".join(body).strip("\n"), line))

    for number, line in enumerate(text.splitlines(), start=1):
        match = _HEADER.match(line)
        if not match:
            body.append(line)
            continue
        close()
        words = match.group(1).split()
        if not words or words[0] not in KINDS:
            raise LessonError(f"{where}:{number}: unknown cell kind {line!r}; expected one of {KINDS}")
        kind, args = words[0], tuple(words[1:])
        wanted = {"markdown": (0, 0), "code": (0, 0), "answer": (1, 1), "tests": (1, 1), "reference": (2, None)}
        low, high = wanted[kind]
        if len(args) < low or (high is not None and len(args) > high):
            raise LessonError(f"{where}:{number}: wrong number of arguments in {line!r}")
        header, body = (kind, args, number), []
    close()
    if not specs:
        raise LessonError(f"{where}: no cells (a cell starts with a line '%%% KIND')")
    return specs


# ---------------------------------------------------------------- notebooks


def _nbgrader(grade_id, *, grade=False, solution=False, locked=False):
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3, "solution": solution}
    if grade:
        if grade_id not in POINTS:
            raise LessonError(f"test cell {grade_id!r} has no entry in POINTS ({__name__})")
        meta["points"] = POINTS[grade_id]
    return {"nbgrader": meta}


def _cell(spec, index, blocks, where):
    """Turn one cell spec into a notebook cell dict."""
    at = f"{where}:{spec.line}"
    if spec.kind == "markdown":
        return {"cell_type": "markdown", "id": f"cell-{index:02d}", "metadata": {}, "source": spec.source}
    if spec.kind == "code":
        source, metadata, cell_id = spec.source, {}, f"cell-{index:02d}"
    elif spec.kind in ("answer", "tests"):
        (grade_id,) = spec.args
        if spec.kind == "answer" and SOLUTION_MARK not in spec.source:
            raise LessonError(f"{at}: answer cell {grade_id!r} has no solution region")
        source, cell_id = spec.source, grade_id
        metadata = _nbgrader(grade_id, grade=spec.kind == "tests", solution=spec.kind == "answer")
    else:  # reference
        grade_id, names = spec.args[0], spec.args[1:]
        if spec.source.strip():
            raise LessonError(f"{at}: a reference cell is generated; leave its body empty")
        missing = [n for n in names if n not in blocks]
        if missing:
            raise LessonError(f"{at}: {REFERENCE.name} defines no top-level {', '.join(missing)}")
        source = "\n\n".join(blocks[n] for n in names)
        cell_id = grade_id
        if SOLUTION_MARK in source:
            metadata = _nbgrader(grade_id, solution=True)
        else:
            metadata = _nbgrader(grade_id, locked=True)
    if not source.strip():
        raise LessonError(f"{at}: empty {spec.kind} cell")
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cell_id,
        "metadata": metadata,
        "outputs": [],
        "source": source,
    }


def build_notebook(lesson_text, reference_text, where="<lesson>"):
    """Return the notebook JSON text for one lesson file and the reference source."""
    blocks = reference_blocks(reference_text)
    cells = [_cell(spec, i, blocks, where) for i, spec in enumerate(parse_lesson(lesson_text, where))]
    seen = set()
    for cell in cells:
        if cell["id"] in seen:
            raise LessonError(f"{where}: grade id {cell['id']!r} is used twice")
        seen.add(cell["id"])
    for cell in cells:
        cell["source"] = cell["source"].splitlines(keepends=True)
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": KERNELSPEC, "language_info": LANGUAGE_INFO},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    # The layout nbformat (and so JupyterLab) writes: one-space indent, sorted keys,
    # sources as lists of lines, a final newline. Plain json keeps the builder quick.
    return json.dumps(nb, indent=1, sort_keys=True, separators=(",", ": "), ensure_ascii=False) + "\n"


def expected_notebooks(notebooks=None):
    """Map each notebook path to the text the builder produces for it."""
    notebooks = NOTEBOOKS if notebooks is None else notebooks
    reference_text = REFERENCE.read_text(encoding="utf-8")
    built = {}
    for lesson in LESSONS:
        src = lesson.text_path(notebooks)
        where = str(src.relative_to(notebooks.parent)) if notebooks.parent in src.parents else str(src)
        built[lesson.notebook_path(notebooks)] = build_notebook(src.read_text(encoding="utf-8"), reference_text, where)
    graded = set()
    for text in built.values():
        for cell in json.loads(text)["cells"]:
            meta = cell["metadata"].get("nbgrader", {})
            if meta.get("grade"):
                graded.add(meta["grade_id"])
    unused = sorted(set(POINTS) - graded)
    if unused:
        raise LessonError(f"POINTS lists grade ids that no lesson uses: {', '.join(unused)}")
    return built


def stale(notebooks=None):
    """The notebooks whose committed text differs from the builder's output (or that are missing)."""
    return [path for path, text in expected_notebooks(notebooks).items()
            if not path.exists() or path.read_text(encoding="utf-8") != text]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a committed notebook is out of date")
    args = parser.parse_args(argv)
    notebooks = NOTEBOOKS
    try:
        if args.check:
            out_of_date = stale(notebooks)
            for path in out_of_date:
                print(
                    f"{path.relative_to(notebooks.parent)} differs from what {REFERENCE.parent.name}/"
                    f"{REFERENCE.name} and notebooks/lessons/ give: run `make notebooks`",
                    file=sys.stderr,
                )
            return 1 if out_of_date else 0
        for path, text in expected_notebooks(notebooks).items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path.relative_to(notebooks.parent)}")
        return 0
    except LessonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
