"""Read a hand-in (a module, a notebook or a folder) for grading, so that no shape of it makes the grader fail.

This is the one way in for a hand-in: ``read`` gives what is graded, lesson notebooks and the code graded on
the course's functions, and each failure is a SubmissionError. A folder is walked without recursion, to a
bounded depth and over a bounded number of entries; a file that cannot be opened, a notebook nested deeper than
any saved by Jupyter, and code nested too deeply for the grader's own parser each give a message that names the
file and says what to do, and the other files of the hand-in are still graded.
"""

import ast
import functools
import os
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course import cells as notebook
from autograder.course.cells import MAX_LOOKED_AT, drop_unwritten_stubs
from autograder.course.lessons import LESSONS, grade_cells
from autograder.course.paths import reference_modules
from autograder.grading.submission import (
    Chunk,
    Submission,
    SubmissionError,
    from_module,
    from_notebook_json,
    read_notebook_json,
)

MAX_FOLDER_DEPTH = 16  # a learner repository keeps its work one or two folders down
MAX_ENTRIES = 20_000  # files and folders looked at in one hand-in, a repository's .git left out
MAX_NOTEBOOK_DEPTH = 100  # JSON nesting: a lesson notebook is 6 deep, widget state some 20
SKIPPED_FOLDERS = (".ipynb_checkpoints", ".git")
MAX_PARSED_HERE = MAX_LOOKED_AT  # characters of a hand-in's code the grader parses itself (some 200 MB at most)


@functools.cache
def module_names():
    """The lesson modules' file names, as in exercises/ (the course's references that hold a solution)."""
    return tuple(f"{name}.py" for name in reference_modules())


def modules_said():
    """How a message names the lesson modules."""
    return " or ".join(module_names())


@contextmanager
def reading(path):
    """Whatever reading ``path`` raises (no permission, a name too long, too deep to parse) as a SubmissionError."""
    try:
        yield
    except (RecursionError, MemoryError):
        raise SubmissionError(
            f"{path}: nested too deeply or too large to read; save it again as a plain notebook or module "
            "(in JupyterLab: File > Save) and hand it in again"
        ) from None
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise SubmissionError(
            f"{path}: cannot be read ({reason}); hand in an ordinary file that you can open"
        ) from None


def handed_in_files(folder):
    """([(path, is_link)], notes): the notebooks and lesson modules under ``folder``, in sorted order.

    Breadth first, without recursion: a folder chain thousands deep costs MAX_FOLDER_DEPTH
    listings, and a folder of a million files MAX_ENTRIES entries. Symbolic links to folders
    are not followed; links to files are listed, for the caller to refuse.
    """
    found, notes, seen = [], [], 0
    queue, too_deep = deque([(Path(folder), 0)]), None
    while queue:
        here, depth = queue.popleft()
        entries = []
        try:
            with os.scandir(here) as listing:
                for entry in listing:
                    seen += 1
                    if seen > MAX_ENTRIES:
                        notes.append(
                            f"{folder}: more than {MAX_ENTRIES:,} files and folders, so only some were looked "
                            f"at; hand in only your notebooks and your lesson modules ({modules_said()})"
                        )
                        queue.clear()
                        break
                    entries.append(entry)
        except OSError as err:
            notes.append(
                f"{here}: the folder cannot be read ({err.strerror or type(err).__name__}), so the files in "
                "it were not graded; hand in ordinary folders that you can open"
            )
        for entry in sorted(entries, key=lambda e: e.name):
            try:
                is_folder, is_link = entry.is_dir(follow_symlinks=False), entry.is_symlink()
            except OSError:
                continue
            if is_folder and entry.name not in SKIPPED_FOLDERS:
                if depth < MAX_FOLDER_DEPTH:
                    queue.append((here / entry.name, depth + 1))
                elif too_deep is None:
                    too_deep = here / entry.name
            elif not is_folder and (entry.name.endswith(".ipynb") or entry.name in module_names()):
                found.append((here / entry.name, is_link))
    if too_deep is not None:
        notes.append(
            f"{too_deep}: folders more than {MAX_FOLDER_DEPTH} deep are not looked in; "
            f"move your notebooks and lesson modules ({modules_said()}) up and hand them in again"
        )
    return sorted(found), notes


def check_depth(nb, path):
    """SubmissionError when a parsed notebook nests deeper than MAX_NOTEBOOK_DEPTH (copying it would recurse)."""
    stack = [(nb, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NOTEBOOK_DEPTH:
            raise SubmissionError(
                f"{path}: its JSON is nested more than {MAX_NOTEBOOK_DEPTH} deep (in a cell's metadata or outputs), "
                "deeper than any notebook Jupyter saves; remove what was added to its metadata, clear its outputs, "
                "and hand it in again"
            )
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def parsable(chunks):
    """(kept, notes): the chunks the grader's parser can read; a SyntaxError is kept, for the sandbox to report.

    The grader parses at most MAX_PARSED_HERE characters of them, in order: parsing costs it some 500 bytes
    of memory a byte of code. A chunk past that is kept unparsed, and only the sandbox child, under its
    memory limit, parses it (as it runs it).
    """
    kept, notes, left = [], [], MAX_PARSED_HERE
    for chunk in chunks:
        if len(chunk.code) > left:
            kept.append(chunk)
            continue
        left -= len(chunk.code)
        try:
            ast.parse(chunk.code)
        except (SyntaxError, ValueError):
            pass
        except (RecursionError, MemoryError):
            notes.append(
                f"{chunk.label}: its code is nested too deeply for Python to read, so it was not graded; "
                "split the long expression into smaller statements and hand it in again"
            )
            continue
        kept.append(chunk)
    return kept, notes


def grade_id_of(cell):
    """A cell's grade id, or None when it has none or one that is not a string."""
    grade_id = notebook.nbgrader_meta(cell).get("grade_id") if isinstance(cell, dict) else None
    return grade_id if isinstance(grade_id, str) else None


def lesson_of(nb, filename):
    """The lesson a notebook belongs to: the one whose grade ids it carries, or whose file name it has; or None."""
    try:
        ids = {grade_id_of(c) for c in notebook.cells_of(nb)}
    except ValueError:  # no list of cells: from_notebook_json says so
        ids = set()
    assignment = {grade_id: cell.assignment for grade_id, cell in grade_cells().items()}
    overlap = {lesson: sum(assignment.get(g) == lesson.assignment for g in ids) for lesson in LESSONS}
    best = max(LESSONS, key=lambda lesson: (overlap[lesson], lesson.notebook == filename))
    if overlap[best] or best.notebook == filename:
        return best
    return None


def screened(submission):
    """The submission without the chunks the grader cannot parse (said in its notes); SubmissionError if none is
    left."""
    chunks, notes = parsable(submission.chunks)
    if not chunks:
        raise SubmissionError("; ".join(notes))
    return Submission(submission.origin, chunks, submission.notes + notes)


def notebook_json(path):
    """A hand-in notebook parsed (a dict); SubmissionError naming it when it cannot be read or nests too deeply."""
    with reading(path):
        nb = read_notebook_json(path)
        check_depth(nb, path)
    return nb


def module(path):
    """A hand-in module's code, screened."""
    with reading(path):
        return screened(from_module(path))


@dataclass
class LessonNotebook:
    """A lesson's notebook in a hand-in: parsed, or the reason it could not be read."""

    lesson: object  # a course.lessons.Lesson
    path: Path
    nb: dict = None
    problem: str = ""


@dataclass
class Handin:
    """What a hand-in gives to grade: lesson notebooks, or code graded on the course's functions."""

    origin: Path
    folder: bool = False
    lessons: list = field(default_factory=list)  # [LessonNotebook], in lesson order
    extra: list = field(default_factory=list)  # [Chunk]: code of the other files, joining each lesson notebook's
    code: Submission = None  # without a lesson notebook: the code graded on the functions
    modules: tuple = ()  # the names of the modules that code came from: lesson modules grade their own functions
    notes: list = field(default_factory=list)  # what was left out, and why


def read(path, only=None):
    """The hand-in at ``path``; SubmissionError when nothing in it can be graded.

    only: a lesson, to read the hand-in for that lesson alone (a folder's other lesson notebooks are left out).
    """
    path = Path(path)
    with reading(path):
        found, folder = path.exists() or path.is_symlink(), path.is_dir() and not path.is_symlink()
    if not found:
        raise SubmissionError(f"{path}: no such file or folder; check the path")
    if folder:
        return read_folder(path, only)
    if path.suffix == ".ipynb":
        nb = notebook_json(path)
        lesson = lesson_of(nb, path.name)
        if only is not None and lesson not in (None, only):
            raise SubmissionError(
                f"{path}: this is the notebook of {lesson.assignment}; hand in {only.notebook}, the "
                f"notebook of {only.assignment}"
            )
        if lesson is None:
            return Handin(path, code=screened(from_notebook_json(nb, path)))
        return Handin(path, lessons=[LessonNotebook(lesson, path, nb)])
    if path.suffix == ".py":  # a lesson module's file (tape.py) is graded on that lesson's functions
        return Handin(path, code=module(path), modules=(path.stem,))
    raise SubmissionError(
        f"{path}: cannot grade a '{path.suffix or 'extensionless'}' file; "
        "hand in a .py module, an .ipynb notebook, or a folder"
    )


def read_folder(folder, only=None):
    """Each lesson notebook in the folder, the other files' code joining them; without one, all the code, to grade on
    the functions. With ``only``, that lesson's notebook alone, or without it the code."""
    files, walked = handed_in_files(folder)
    notebooks = [p for p, _ in files if p.suffix == ".ipynb"]
    modules = [p for p, _ in files if p.name in module_names()]
    links = {p for p, link in files if link}
    linked = [f"{p}: symbolic link ignored; hand in the file itself" for p in notebooks + modules if p in links]
    handin = Handin(folder, folder=True, notes=list(linked))
    lessons, extra, problems = {}, [], list(walked)
    for path in [p for p in notebooks + modules if p not in links]:
        try:
            if path.suffix == ".py":
                code = module(path)
                extra += code.chunks
                problems += code.notes
                continue
            nb = notebook_json(path)
        except SubmissionError as err:  # one unreadable file does not hide the others
            lesson = next((each for each in LESSONS if each.notebook == path.name), None)
            if lesson is not None and lesson.assignment not in lessons:
                lessons[lesson.assignment] = LessonNotebook(lesson, path, None, str(err))
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
                handin.notes.append(f"{path}: a second {lesson.assignment} notebook; its code joins the first one's")
            continue
        lessons[lesson.assignment] = LessonNotebook(lesson, path, nb)
    if only is not None:  # the other lessons' notebooks are left out, and said to be
        problems += [
            f"{lessons.pop(name).path}: not graded here; this assignment grades {only.notebook}"
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
                or f"{folder}: no notebook or {modules_said()} found; hand "
                "in your lesson notebook(s) or your module(s) from exercises/"
            )
        pairs = drop_unwritten_stubs([(c.label, c.code) for c in extra])
        handin.code = Submission(folder, [Chunk(label, code) for label, code in pairs], problems)
        handin.modules = tuple(sorted({p.stem for p in modules if p not in links}))
        return handin
    handin.notes += problems
    handin.lessons = [lessons[lesson.assignment] for lesson in LESSONS if lesson.assignment in lessons]
    handin.extra = extra
    return handin
