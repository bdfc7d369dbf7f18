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

from autograder.course import active, cells as notebook
from autograder.course.cells import drop_unwritten_stubs, replaced_stubs
from autograder.course.lessons import LESSONS, function_of, grade_cells, module_of
from autograder.course.metadata import restore_metadata
from autograder.grading import cellgrades, report
from autograder.grading.reading import MAX_PARSED_HERE, check_depth, handed_in_files, parsable, reading
from autograder.grading.submission import (
    MODULE_NAMES,
    MODULES_SAID,
    Chunk,
    Submission,
    SubmissionError,
    from_module,
    from_notebook_json,
    read_notebook_json,
)


def cell_points(cell):
    """What a grade cell is worth: its own points, or the total of its function's hidden checks."""
    return active.part("checks").points_of(cell.function) if cell.function else cell.points


def lesson_points(lesson):
    """{grade_id: points} of a lesson's grade cells, in notebook order: the gradebook's numbers."""
    return {g: cell_points(c) for g, c in grade_cells().items() if c.assignment == lesson.assignment}


def _grade_id(cell):
    """A cell's grade id, or None when it has none or one that is not a string."""
    grade_id = notebook.nbgrader_meta(cell).get("grade_id") if isinstance(cell, dict) else None
    return grade_id if isinstance(grade_id, str) else None


def lesson_of(nb, filename):
    """The lesson a notebook belongs to: the one whose grade ids it carries, or whose file name it has; or None."""
    try:
        ids = {_grade_id(c) for c in notebook.cells_of(nb)}
    except ValueError:  # no list of cells: from_notebook_json says so
        ids = set()
    overlap = {lesson: len(ids & set(lesson_points(lesson))) for lesson in LESSONS}
    best = max(LESSONS, key=lambda lesson: (overlap[lesson], lesson.notebook == filename))
    if overlap[best] or best.notebook == filename:
        return best
    return None


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
    submission = _screened(from_notebook_json(restored, path, lambda cell: _grade_id(cell) in points))
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


def _notebook(path):
    """A hand-in notebook parsed (a dict); SubmissionError naming it when it cannot be read or nests too deeply."""
    with reading(path):
        nb = read_notebook_json(path)
        check_depth(nb, path)
    return nb


def _module(path):
    with reading(path):
        return _screened(from_module(path))


def _screened(submission):
    """The submission without the chunks the grader cannot parse (said in its notes); SubmissionError if none is
    left."""
    chunks, notes = parsable(submission.chunks)
    if not chunks:
        raise SubmissionError("; ".join(notes))
    return Submission(submission.origin, chunks, submission.notes + notes)


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
    from autograder.grading.runner import grade  # imported late: it loads Hypothesis and the checks

    checks = active.part("checks").all_checks()
    if only is not None:
        functions = {function_of(grade_id) for grade_id in lesson_points(only)}
        checks = [check for check in checks if check.function in functions]
    elif any(module_of(check.function) in modules for check in checks):
        checks = [check for check in checks if module_of(check.function) in modules]
    no_lesson(submission, {check.function for check in checks}, only)
    graded = grade(submission, checks)
    return Part("functions", str(submission.origin), report.results_json(graded))


def _lesson_part(lesson, path, record):
    return Part(lesson.assignment, str(path), record["results"])


def grade_path(path, lesson=None):
    """Grade a module, a notebook or a folder; SubmissionError when nothing at all can be graded.

    lesson: an assignment id of the course, to grade the hand-in on that lesson alone.
    """
    started = time.perf_counter()
    only = next(item for item in LESSONS if item.assignment == lesson) if lesson else None
    path = Path(path)
    with reading(path):
        found, folder = path.exists() or path.is_symlink(), path.is_dir() and not path.is_symlink()
    if not found:
        raise SubmissionError(f"{path}: no such file or folder; check the path")
    graded = CourseGrade(str(path))
    if folder:
        _grade_folder(path, graded, only)
    elif path.suffix == ".ipynb":
        nb = _notebook(path)
        lesson = lesson_of(nb, path.name)
        if only is not None and lesson not in (None, only):
            raise SubmissionError(
                f"{path}: this is the notebook of {lesson.assignment}; hand in {only.notebook}, the "
                f"notebook of {only.assignment}"
            )
        if lesson is None:
            graded.parts.append(_functions_part(_screened(from_notebook_json(nb, path)), only=only))
        else:
            graded.parts.append(_lesson_part(lesson, path, grade_lesson(nb, path, lesson)))
    elif path.suffix == ".py":  # a lesson module's file (tape.py) is graded on that lesson's functions
        graded.parts.append(_functions_part(_module(path), path.stem, only=only))
    else:
        raise SubmissionError(
            f"{path}: cannot grade a '{path.suffix or 'extensionless'}' file; "
            "hand in a .py module, an .ipynb notebook, or a folder"
        )
    graded.seconds = time.perf_counter() - started
    return graded


def _grade_folder(folder, graded, only=None):
    """Each lesson notebook in the folder on its lesson; without one, all the code on the functions it may define.
    With ``only``, that lesson's notebook alone, or without it the code on that lesson's functions."""
    files, walked = handed_in_files(folder)
    notebooks = [p for p, _ in files if p.suffix == ".ipynb"]
    modules = [p for p, _ in files if p.name in MODULE_NAMES]
    links = {p for p, link in files if link}
    linked = [f"{p}: symbolic link ignored; hand in the file itself" for p in notebooks + modules if p in links]
    graded.notes += linked
    lessons, extra, problems = {}, [], list(walked)
    for path in [p for p in notebooks + modules if p not in links]:
        try:
            if path.suffix == ".py":
                module = _module(path)
                extra += module.chunks
                problems += module.notes
                continue
            nb = _notebook(path)
        except SubmissionError as err:  # one unreadable file does not hide the others
            lesson = next((each for each in LESSONS if each.notebook == path.name), None)
            if lesson is not None and lesson.assignment not in lessons:
                lessons[lesson.assignment] = (lesson, path, None, str(err))
            else:
                problems.append(str(err))
            continue
        lesson = lesson_of(nb, path.name)
        if lesson is None or lesson.assignment in lessons:
            try:
                chunks, unread = parsable(from_notebook_json(nb, path).chunks)
                extra += chunks
                problems += unread
            except SubmissionError as err:
                problems.append(str(err))
            if lesson is not None:
                graded.notes.append(f"{path}: a second {lesson.assignment} notebook; its code joins the first one's")
            continue
        lessons[lesson.assignment] = (lesson, path, nb, "")
    if only is not None:  # the other lessons' notebooks are left out, and said to be
        problems += [
            f"{lessons.pop(name)[1]}: not graded here; this assignment grades {only.notebook}"
            for name in list(lessons)
            if name != only.assignment
        ]
    if not lessons:
        if not extra:
            if only is not None:
                raise SubmissionError(
                    "; ".join(problems + linked + [f"{folder}: no {only.notebook} found; hand it in"])
                )
            raise SubmissionError(
                "; ".join(problems + linked)
                or f"{folder}: no notebook or {MODULES_SAID} found; hand "
                "in your lesson notebook(s) or your module(s) from exercises/"
            )
        pairs = drop_unwritten_stubs([(c.label, c.code) for c in extra])
        submission = Submission(folder, [Chunk(label, code) for label, code in pairs], problems)
        # Lesson modules (graph.py, tape.py) are graded on their lessons' functions; other code on every one.
        graded.parts.append(_functions_part(submission, *{p.stem for p in modules if p not in links}, only=only))
        return
    graded.notes += problems
    for lesson in LESSONS:  # lesson order
        if lesson.assignment not in lessons:
            continue
        _, path, nb, problem = lessons[lesson.assignment]
        if not problem:
            try:
                record = grade_lesson(nb, path, lesson, extra)
            except SubmissionError as err:  # its code cannot be read: this lesson alone is worth 0
                problem = str(err)
        if problem:
            record = cellgrades.problem_record(problem, lesson_points(lesson), path.name)
        graded.parts.append(_lesson_part(lesson, path, record))


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
