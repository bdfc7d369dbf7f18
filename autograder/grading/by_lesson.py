"""Grade a hand-in the way the course grades it: lesson by lesson, with the points `make grade` gives.

A lesson notebook is graded on that lesson's grade cells (its functions' hidden checks
and its answer cells), after its nbgrader metadata is restored from the course's own
notebook, exactly as the batch restores it before nbgrader sees it. A folder gives one
result per lesson notebook it holds, plus the total. A module (one of exercises/), or
code that belongs to no lesson, is graded on every function it may define. In a folder, code from
a module or another notebook joins each lesson's code, and a function the learner wrote
anywhere wins over an untouched stub. Given a lesson (its assignment id), a hand-in is graded on
that lesson alone: its notebook, or, without one, the functions the lesson grades.
"""

import ast
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course import active
from autograder.course.cells import drop_unwritten_stubs, replaced_stubs
from autograder.course.lessons import LESSONS, grade_cells
from autograder.course.metadata import restore_metadata
from autograder.grading import cellgrades, report, runner
from autograder.grading.reading import MAX_PARSED_HERE, grade_id_of, read, screened
from autograder.grading.submission import Chunk, SubmissionError, from_notebook_json


def cell_points(cell):
    """What a grade cell is worth: its own points, or the total of its function's hidden checks."""
    return active.part("checks").points_of(cell.function) if cell.function else cell.points


def lesson_points(lesson):
    """{grade_id: points} of a lesson's grade cells, in notebook order: the gradebook's numbers."""
    return {g: cell_points(c) for g, c in grade_cells().items() if c.assignment == lesson.assignment}


def _source_notebook(lesson):
    return json.loads(lesson.notebook_path().read_text(encoding="utf-8"))


@dataclass
class Part:
    """One graded part of a hand-in: a lesson notebook, or code graded on the functions it may define."""

    label: str  # the assignment id, or "functions"
    origin: str  # the file it came from
    results: dict  # Gradescope's results.json schema, for this part alone


@dataclass
class CourseGrade:
    origin: str
    parts: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def score(self):
        return round(sum(p.results["score"] for p in self.parts), 4)

    @property
    def max_score(self):
        return round(sum(p.results["max_score"] for p in self.parts), 4)

    def by_lesson(self):
        """{assignment: (score, max score)} for the lesson parts."""
        return {p.label: (p.results["score"], p.results["max_score"]) for p in self.parts if p.label != "functions"}


def _restored(nb, lesson):
    """The notebook with its nbgrader metadata restored from the course's notebook, as the batch does."""
    try:
        return restore_metadata(nb, _source_notebook(lesson))
    except (KeyError, TypeError, AttributeError, ValueError):  # shapes too odd to restore: grade it as it is
        return nb


def grade_lesson(nb, path, lesson, extra=()):
    """The record of one lesson notebook (a parsed JSON dict), with ``extra`` chunks from other files."""
    points = lesson_points(lesson)
    restored = _restored(nb, lesson)
    submission = screened(from_notebook_json(restored, path, lambda cell: grade_id_of(cell) in points))
    chunks, notes = submission.chunks + list(extra), list(submission.notes)
    if extra:
        pairs = [(c.label, c.code) for c in chunks]
        moved, kept = replaced_stubs(pairs), drop_unwritten_stubs(pairs)
        if moved:
            sources = ", ".join(sorted({c.label for c in extra}))
            notes.append(
                f"{', '.join(moved)}: the notebook's cell is an unwritten stub, so the code graded is {sources}'s"
            )
        chunks = [Chunk(label, code) for label, code in kept]
    return cellgrades.grade_record(chunks, points, notes, Path(path).name)


def names_defined(chunks):
    """The top-level names the chunks define (functions, classes, assignments), or None when one does not parse
    within the grader's budget (then only running it can tell)."""
    names, left = set(), MAX_PARSED_HERE
    for chunk in chunks:
        left -= len(chunk.code)
        if left < 0:
            return None
        try:
            tree = ast.parse(chunk.code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def no_lesson(submission, functions, only=None):
    """SubmissionError when the code matches no lesson of the course: it defines none of the functions it is graded
    on (another course's work, or the wrong file); it names the file, the course's lessons and what to hand in."""
    defined = names_defined(submission.chunks)
    if defined is None or defined & functions:
        return
    lessons = [only] if only is not None else LESSONS
    raise SubmissionError(
        f"{submission.origin}: matches no lesson of the course {active.name()!r}: it holds no lesson notebook and "
        f"defines none of the functions graded ({', '.join(sorted(functions))}); hand in the notebook of "
        f"{', '.join(lesson.assignment for lesson in lessons)}, or the module you wrote those functions in"
    )


def _functions_part(submission, *modules, only=None):
    """The submission's code graded on the course's functions: those of ``modules`` alone, when they are lesson modules;
    those the lesson ``only`` grades, when it is given."""
    checks, cells = active.part("checks").all_checks(), grade_cells().values()
    module_of = {}  # function: the lesson module that defines it
    for cell in cells:
        module_of.setdefault(cell.function, cell.module)
    if only is not None:
        functions = {cell.function for cell in cells if cell.assignment == only.assignment and cell.function}
        checks = [check for check in checks if check.function in functions]
    elif any(module_of.get(check.function, "") in modules for check in checks):
        checks = [check for check in checks if module_of.get(check.function, "") in modules]
    no_lesson(submission, {check.function for check in checks}, only)
    graded = runner.grade(submission, checks)
    return Part("functions", str(submission.origin), report.results_json(graded))


def grade_path(path, lesson=None):
    """Grade a module, a notebook or a folder (read by grading/reading.py); SubmissionError when nothing at all can
    be graded.

    lesson: an assignment id of the course, to grade the hand-in on that lesson alone.
    """
    started = time.perf_counter()
    only = next(item for item in LESSONS if item.assignment == lesson) if lesson else None
    handin = read(path, only)
    graded = CourseGrade(str(handin.origin), notes=list(handin.notes))
    if handin.code is not None:
        graded.parts.append(_functions_part(handin.code, *handin.modules, only=only))
    for each in handin.lessons:  # lesson order
        problem = each.problem
        if not problem:
            try:
                record = grade_lesson(each.nb, each.path, each.lesson, handin.extra)
            except SubmissionError as err:  # in a folder, its code cannot be read: this lesson alone is worth 0
                if not handin.folder:
                    raise
                problem = str(err)
        if problem:
            record = cellgrades.problem_record(problem, lesson_points(each.lesson), each.path.name)
        graded.parts.append(Part(each.lesson.assignment, str(each.path), record["results"]))
    graded.seconds = time.perf_counter() - started
    return graded


def results_json(graded):
    """One results.json for the whole hand-in: every part's tests, their scores summed."""
    if len(graded.parts) == 1 and not graded.notes:
        results = dict(graded.parts[0].results)
    else:
        outputs = [p.results["output"] for p in graded.parts]
        if len(graded.parts) > 1:
            outputs.append(f"total: {graded.score:g}/{graded.max_score:g}")
        outputs += graded.notes
        results = {
            "score": graded.score,
            "max_score": graded.max_score,
            "output": "\n\n".join(outputs),
            "tests": [test for p in graded.parts for test in p.results["tests"]],
        }
    results["execution_time"] = round(graded.seconds, 3)
    return results
