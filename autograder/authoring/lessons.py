"""Build the nbgrader source notebooks from the lesson sources and the references.

    python -m autograder.authoring.lessons          # rewrite notebooks/source/*/*.ipynb
    python -m autograder.authoring.lessons --check  # exit 1 if a committed notebook is out of date

The prose, questions and visible tests of each lesson live in its source under
notebooks/lessons/ (the format: autograder/course/lessons.py). Reference cells
are cut out of their module of solutions/ (``module=``, default graph) at build
time, solution markers included, so the notebooks always carry the reference and
never a copy of it. A grade cell's points are its own (answer cells) or what the
hidden checks on its function add up to (graphcourse/checks/).

Output is deterministic: nbformat 4.5, no outputs, a fixed python3 kernelspec,
and cell ids taken from the grade id (or from the cell's position).
"""

import argparse
import ast
import json
import sys

from autograder.course import active
from autograder.course.lessons import LessonError, discover, lesson_grade_cells, parse
from autograder.course.markers import BEGIN
from autograder.course.paths import (
    LESSONS_FOLDER,
    NOTEBOOKS,
    NOTEBOOKS_FOLDER,
    REFERENCES_FOLDER,
    SOLUTIONS,
    reference_modules,
)
from autograder.grading import answers
from autograder.grading.by_lesson import cell_points

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"name": "python"}


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


# ---------------------------------------------------------------- notebooks


def check_grade_cell(cell):
    """A LessonError naming what the author forgot about a grade cell, if anything."""
    if cell.function:
        if not active.part("checks").points_of(cell.function):
            raise LessonError(
                f"{cell.where}: no hidden check grades {cell.function!r}; add a family for it in "
                f"{active.name()}/checks/"
            )
    elif cell.judge not in answers.judges():
        raise LessonError(
            f"{cell.where}: judge={cell.judge!r} is not defined; "
            f"use one of the kit's ({', '.join(answers.KIT_JUDGES)}) or add it to JUDGES in the course's answers.py"
        )
    elif cell.judge == "one_of" and (
        not isinstance(cell.options.get("accept"), dict)
        or len(cell.options["accept"]) != 1
        or list(cell.options["accept"]) != list(cell.solution)
    ):
        raise LessonError(
            f'{cell.where}: a one_of question needs accept={{"NAME": [value, ...]}} for the one variable '
            "its answer cell sets"
        )
    elif (
        cell.judge == "one_of" and cell.solution[list(cell.solution)[0]] not in list(cell.options["accept"].values())[0]
    ):
        raise LessonError(f"{cell.where}: the answer cell's solution is not one of the values accept= lists")
    elif set(cell.explain) & {str(v) for v in cell.solution.values()}:
        raise LessonError(f"{cell.where}: explain= gives a reason why the right answer is wrong")
    elif cell.judge == "choice" and len(cell.solution) != 1:
        raise LessonError(
            f"{cell.where}: a choice question's answer cell sets exactly one variable to the right letter"
        )
    else:
        wanted = set(answers.judges()[cell.judge].names or cell.solution)
        if wanted - set(cell.solution):
            raise LessonError(
                f"{cell.where}: the judge {cell.judge!r} reads {', '.join(sorted(wanted))}, but the answer cell above "
                f"assigns {', '.join(sorted(cell.solution))}"
            )


def _nbgrader(grade_id, *, points=None, solution=False, locked=False):
    meta = {
        "grade": points is not None,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
    }
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def _cell(spec, index, blocks, graded, where):
    """Turn one lesson cell into a notebook cell dict."""
    at = f"{where}:{spec.line}"
    if spec.kind == "markdown":
        return {"cell_type": "markdown", "id": f"cell-{index:02d}", "metadata": {}, "source": spec.source}
    grade_id = spec.grade_id
    if spec.kind == "code":
        source, metadata, grade_id = spec.source, {}, f"cell-{index:02d}"
    elif spec.kind == "answer":
        if BEGIN not in spec.source:
            raise LessonError(f"{at}: answer cell {grade_id!r} has no solution region")
        source, metadata = spec.source, _nbgrader(grade_id, solution=True)
    elif spec.kind == "tests":
        source, metadata = spec.source, _nbgrader(grade_id, points=cell_points(graded[grade_id]))
    else:  # reference
        names, module = spec.settings["names"], spec.settings["module"]
        if spec.source.strip():
            raise LessonError(f"{at}: a reference cell is generated; leave its body empty")
        if module not in blocks:
            raise LessonError(
                f"{at}: module={module!r}, but {REFERENCES_FOLDER}/ has no {module}.py with solution regions"
            )
        missing = [n for n in names if n not in blocks[module]]
        if missing:
            raise LessonError(f"{at}: {REFERENCES_FOLDER}/{module}.py defines no top-level {', '.join(missing)}")
        source = "\n\n".join(blocks[module][n] for n in names)
        metadata = _nbgrader(grade_id, solution=True) if BEGIN in source else _nbgrader(grade_id, locked=True)
    if not source.strip():
        raise LessonError(f"{at}: empty {spec.kind} cell")
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": grade_id,
        "metadata": metadata,
        "outputs": [],
        "source": source,
    }


def build_notebook(lesson, lesson_text, references, where="<lesson>"):
    """Return the notebook JSON text for one lesson's source and the references ({module: reference text})."""
    blocks = {module: reference_blocks(text) for module, text in references.items()}
    specs = parse(lesson_text, where)
    graded = {cell.grade_id: cell for cell in lesson_grade_cells(lesson, specs, where)}
    for cell in graded.values():
        check_grade_cell(cell)
    shipped = [spec for spec in specs if spec.kind != "lesson"]  # the lesson cell: settings and a note for authors
    cells = [_cell(spec, i, blocks, graded, where) for i, spec in enumerate(shipped)]
    seen = set()
    for cell in cells:
        if cell["id"] in seen:
            raise LessonError(f"{where}: grade id {cell['id']!r} is used twice")
        seen.add(cell["id"])
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


def expected_notebooks(notebooks=NOTEBOOKS, solutions=SOLUTIONS):
    """Map each notebook path to the text the builder produces for it."""
    reference_text = {name: path.read_text(encoding="utf-8") for name, path in reference_modules(solutions).items()}
    built = {}
    for lesson in discover(notebooks):
        src = lesson.source_path(notebooks)
        where = f"{src.parent.name}/{src.name}"
        built[lesson.notebook_path(notebooks)] = build_notebook(
            lesson, src.read_text(encoding="utf-8"), reference_text, where
        )
    return built


def stale(notebooks=NOTEBOOKS, solutions=SOLUTIONS):
    """The notebooks whose committed text differs from the builder's output (or that are missing)."""
    return [
        path
        for path, text in expected_notebooks(notebooks, solutions).items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a committed notebook is out of date")
    args = parser.parse_args(argv)
    try:
        if args.check:
            out_of_date = stale(NOTEBOOKS)
            for path in out_of_date:
                print(
                    f"{path.relative_to(NOTEBOOKS.parent)} differs from what {REFERENCES_FOLDER}/ and "
                    f"{NOTEBOOKS_FOLDER}/{LESSONS_FOLDER}/ give: run `make notebooks`",
                    file=sys.stderr,
                )
            return 1 if out_of_date else 0
        for path, text in expected_notebooks(NOTEBOOKS).items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path.relative_to(NOTEBOOKS.parent)}")
        return 0
    except LessonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
