"""The lessons and their grade cells, discovered from the lesson sources in notebooks/lessons/.

Every ``*.py`` file of notebooks/lessons/ is a lesson: its file name (without .py)
is the nbgrader assignment id, and lessons come in file-name order. Nothing else
lists them.

A lesson source is a Python file in the percent format (as jupytext and VS Code
read it), so an author can open it as a notebook to preview it. Each cell starts
with a header line, and a cell's settings sit on that line, next to the cell:

    # %% lesson notebook="computation_graphs.ipynb"  the first cell: the notebook the lesson becomes; its
                                                     comment lines are a note for authors, never shipped
                                                     (draft=true: read and checked, but not built or graded;
                                                     due="2026-03-13 23:59:00 UTC": its due date)
    # %% [markdown]                                  prose; every line starts with "# "
    # %% code                                        an ungraded cell the learner may edit
    # %% answer grade_id="order_solution"            the learner's answer; the key sits in a solution region
    # %% tests grade_id="answer_order" points=1 judge="order"
                                                     a grade cell judging the answer cell just above it
                                                     (a choice question adds explain={"A": "why A is wrong", ...})
    # %% tests grade_id="area_correct" grades="area"
                                                     a grade cell worth the hidden checks of a function
    # %% reference grade_id="area_solution" module="shapes" names=["area"]
                                                     the reference's top-level definitions, cut out of
                                                     solutions/shapes.py when the notebook is built

Setting values are JSON. A function a ``grades`` cell names must be defined by a
reference cell of the same lesson: that cell's module is the function's module. These
headers are the course's one table of grade cells: ``grade_cells()`` reads it, the
notebook builder (autograder/authoring/lessons.py) turns it into nbgrader metadata,
and grading looks up what each grade cell grades here, never by parsing its id.
A ``grades`` cell is worth what the hidden checks on that function add up to; an
answer is judged by the named judge of autograder/grading/answers.py against
answers computed from the reference. Multiple-choice keys are the answer cell's
own solution, so they are written once.
"""

import ast
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course import active
from autograder.course.markers import solution_regions

NOTEBOOKS_FOLDER = "notebooks"  # in the course's folder: the nbgrader course (nbgrader_config.py, lessons/, source/)
LESSONS_FOLDER = "lessons"  # in NOTEBOOKS_FOLDER: the lesson sources

KINDS = ("lesson", "markdown", "code", "answer", "tests", "reference")
SETTINGS = {  # kind: (required settings, optional settings)
    "lesson": (("notebook",), ("draft", "due")),
    "markdown": ((), ()),
    "code": ((), ()),
    "answer": (("grade_id",), ()),
    "tests": (("grade_id",), ("points", "judge", "grades", "explain", "tolerance", "accept")),
    "reference": (("grade_id", "module", "names"), ()),
}
DUE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC")  # a lesson's due= setting, as nbgrader reads it
_HEADER = re.compile(r"^# %%(?P<rest>.*)$")
_KEY = re.compile(r"\s*(?P<key>\w+)=")
_JSON = json.JSONDecoder()


class LessonError(ValueError):
    """A lesson source cannot be read; the message names the file, the line and the fix."""


def notebooks_folder(notebooks=None):
    """``notebooks``, or the course's notebooks/ folder (found when first asked for, not when this module is
    imported)."""
    return _course_notebooks() if notebooks is None else Path(notebooks)


@functools.cache
def _course_notebooks():
    return active.root() / NOTEBOOKS_FOLDER


@dataclass(frozen=True)
class Lesson:
    """One nbgrader assignment: the lesson source it is built from and the notebook it becomes."""

    assignment: str  # folder under notebooks/source/, the nbgrader assignment id
    notebook: str  # file name of the notebook inside that folder
    source: str  # lesson source under notebooks/lessons/
    due: str = ""  # its due date as its lesson cell gives it (due="2026-03-13 23:59:00 UTC"), "" when it gives none

    def notebook_path(self, notebooks=None) -> Path:
        return notebooks_folder(notebooks) / "source" / self.assignment / self.notebook

    def source_path(self, notebooks=None) -> Path:
        return notebooks_folder(notebooks) / LESSONS_FOLDER / self.source


def discover(notebooks=None, drafts=False):
    """The lessons of ``notebooks``/lessons/ (the course's, by default), in file-name order (drafts left out unless
    asked for)."""
    found = []
    for path in sorted((notebooks_folder(notebooks) / LESSONS_FOLDER).glob("*.py")):
        where = f"{path.parent.name}/{path.name}"
        first = parse(path.read_text(encoding="utf-8"), where)[0]
        if first.kind != "lesson":
            raise LessonError(
                f"{where}:{first.line}: a lesson source starts with its lesson cell; add the line "
                f'# %% lesson notebook="{path.stem}.ipynb" above line {first.line}'
            )
        notebook = first.settings["notebook"]
        if not isinstance(notebook, str) or not re.fullmatch(r"[A-Za-z0-9][\w.-]*\.ipynb", notebook):
            raise LessonError(
                f'{where}:{first.line}: notebook= names the notebook file, e.g. notebook="{path.stem}.ipynb"'
            )
        due = first.settings.get("due", "")
        if not isinstance(due, str) or (due and not DUE.fullmatch(due)):
            raise LessonError(
                f'{where}:{first.line}: due= is a date and time in UTC, e.g. due="2026-03-13 23:59:00 UTC"'
            )
        if drafts or first.settings.get("draft") is not True:
            found.append(Lesson(path.stem, notebook, path.name, due))
    return tuple(found)


class _Lessons:
    """The course's lessons, discovered from the lesson sources the first time they are asked for."""

    def __init__(self, notebooks):
        self._notebooks = notebooks

    @functools.cached_property
    def _found(self):
        return discover(self._notebooks)

    def __iter__(self):
        return iter(self._found)

    def __len__(self):
        return len(self._found)

    def __getitem__(self, index):
        return self._found[index]

    def __repr__(self):
        return repr(self._found)


LESSONS = _Lessons(None)  # the course's lessons


@dataclass(frozen=True)
class Cell:
    """One cell of a lesson source."""

    kind: str
    settings: dict
    source: str
    line: int  # line of the header in the lesson source, for messages

    @property
    def grade_id(self):
        return self.settings.get("grade_id")


@dataclass(frozen=True)
class GradeCell:
    """One autograded cell of the course: what it grades and how much it is worth."""

    grade_id: str
    assignment: str
    function: str = ""  # a function cell: the learner function its hidden checks grade
    module: str = ""  # a function cell: the lesson module that defines the function (its reference cell's)
    judge: str = ""  # an answer cell: the judge in autograder/grading/answers.py
    points: float = None  # an answer cell's points; a function cell's come from its checks
    solution: dict = field(default_factory=dict)  # the answer cell's key: {variable: value}
    explain: dict = field(default_factory=dict)  # a choice question: {wrong letter: why it is wrong}
    options: dict = field(default_factory=dict)  # the judge's own settings: tolerance=, accept=
    where: str = ""  # "file:line" of its header


def _settings(rest, where):
    """(kind, {setting: value}) from what follows "# %%" on a header line."""
    rest = rest.strip()
    if rest.startswith("[markdown]"):
        kind, rest = "markdown", rest[len("[markdown]") :]
    else:
        kind, _, rest = rest.partition(" ")
        kind = kind or "code"
    if kind not in KINDS:
        raise LessonError(f"{where}: unknown cell kind {kind!r}; use one of {', '.join(KINDS)}")
    settings, position = {}, 0
    while rest[position:].strip():
        match = _KEY.match(rest, position)
        if not match:
            raise LessonError(
                f"{where}: cannot read the settings {rest[position:].strip()!r}; write key=value, values in JSON"
            )
        try:
            settings[match["key"]], position = _JSON.raw_decode(rest, match.end())
        except ValueError:
            raise LessonError(
                f'{where}: the value of {match["key"]} is not JSON; quote strings, e.g. judge="order"'
            ) from None
    required, optional = SETTINGS[kind]
    missing = [k for k in required if k not in settings]
    unknown = [k for k in settings if k not in required + optional]
    if missing or unknown:
        problem = f"needs {', '.join(missing)}" if missing else f"takes no {', '.join(unknown)}"
        raise LessonError(f"{where}: a {kind} cell {problem}")
    return kind, settings


def parse(text, where="<lesson>"):
    """The cells of a lesson source; a LessonError names the line of any mistake."""
    cells, header, body = [], None, []

    def close():
        if header is not None:
            kind, settings, line = header
            lines = body
            if kind == "markdown":
                lines = [
                    line[2:] if line.startswith("# ") else line[1:] if line.startswith("#") else line for line in body
                ]
            cells.append(Cell(kind, settings, "\n".join(lines).strip("\n"), line))

    for number, line in enumerate(text.splitlines(), start=1):
        match = _HEADER.match(line)
        if not match:
            body.append(line)
            continue
        close()
        kind, settings = _settings(match["rest"], f"{where}:{number}")
        header, body = (kind, settings, number), []
    close()
    if not cells:
        raise LessonError(f"{where}: no cells (a cell starts with a line '# %% KIND')")
    return cells


def solution_values(source, where):
    """{variable: value} assigned as literals inside the solution regions of an answer cell."""
    values = {}
    for region in solution_regions(source):
        try:
            tree = ast.parse("\n".join(region))
        except SyntaxError as err:
            raise LessonError(f"{where}: the solution does not parse ({err.msg})") from None
        for node in tree.body:
            if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    continue
                values.update({t.id: value for t in node.targets})
    return values


def lesson_grade_cells(lesson, cells, where):
    """The grade cells one lesson defines, in notebook order."""
    found, answer = [], None
    modules = {
        name: cell.settings["module"] for cell in cells if cell.kind == "reference" for name in cell.settings["names"]
    }
    for cell in cells:
        at = f"{where}:{cell.line}"
        if cell.kind == "answer":
            answer = (cell, at)
            continue
        if cell.kind != "tests":
            continue
        settings = cell.settings
        if ("judge" in settings) == ("grades" in settings):
            raise LessonError(f'{at}: a tests cell grades either a function (grades="...") or an answer (judge="...")')
        if "grades" in settings:
            if "points" in settings:
                raise LessonError(f"{at}: a function cell is worth its hidden checks; remove points=")
            function = settings["grades"]
            if function not in modules:
                raise LessonError(
                    f"{at}: grades={function!r}, but no reference cell of this lesson names it; add "
                    f'# %% reference grade_id="{function}_solution" module="<module>" names=["{function}"] above it'
                )
            found.append(
                GradeCell(cell.grade_id, lesson.assignment, function=function, module=modules[function], where=at)
            )
            continue
        if answer is None:
            raise LessonError(f"{at}: a judge cell needs the answer cell it judges right above it")
        points = settings.get("points")
        if type(points) not in (int, float) or points <= 0:
            raise LessonError(f"{at}: an answer's grade cell needs points=<a positive number>")
        solution = solution_values(answer[0].source, answer[1])
        if not solution:
            raise LessonError(f"{answer[1]}: the answer cell assigns no value in its solution region")
        found.append(
            GradeCell(
                cell.grade_id,
                lesson.assignment,
                judge=settings["judge"],
                points=points,
                solution=solution,
                explain=settings.get("explain", {}),
                where=at,
                options={k: settings[k] for k in ("tolerance", "accept") if k in settings},
            )
        )
        answer = None
    return found


def read_lesson(lesson, notebooks=None):
    """(the cells of a lesson's source, its grade cells)."""
    path = lesson.source_path(notebooks)
    where = f"{path.parent.name}/{path.name}"
    cells = parse(path.read_text(encoding="utf-8"), where)
    return cells, lesson_grade_cells(lesson, cells, where)


def grade_cells(notebooks=None):
    """{grade_id: GradeCell} for every autograded cell of the course, in lesson order."""
    return _grade_cells(notebooks_folder(notebooks))


@functools.lru_cache(maxsize=None)
def _grade_cells(notebooks):
    table = {}
    for lesson in discover(notebooks):
        for cell in read_lesson(lesson, notebooks)[1]:
            if cell.grade_id in table:
                raise LessonError(f"{cell.where}: grade id {cell.grade_id!r} is used twice")
            table[cell.grade_id] = cell
    return table


def teaching_sources(notebooks=None):
    """The source of every ungraded code cell the lessons ship (kind ``code``), stripped: the course's own
    teaching cells (pictures, plots, worked examples), which a hand-in holds unchanged unless the learner edited
    them."""
    return _teaching_sources(notebooks_folder(notebooks))


@functools.lru_cache(maxsize=None)
def _teaching_sources(notebooks):
    found = set()
    for lesson in discover(notebooks, drafts=True):
        found.update(cell.source.strip() for cell in read_lesson(lesson, notebooks)[0] if cell.kind == "code")
    return frozenset(source for source in found if source)


def function_of(grade_id):
    """The function a grade cell grades with the hidden checks, or ''."""
    cell = grade_cells().get(grade_id)
    return cell.function if cell else ""


def functions(notebooks=None):
    """The learner's functions that grade cells grade, in lesson order: the course's tasks."""
    return tuple(dict.fromkeys(cell.function for cell in grade_cells(notebooks).values() if cell.function))


def module_of(function, notebooks=None):
    """The lesson module that defines a graded function (its reference cell's module), or ''."""
    return next((cell.module for cell in grade_cells(notebooks).values() if cell.function == function), "")


def first_module(notebooks=None):
    """The module of the course's first lesson that adds functions: what the bench and the mutants grade."""
    return module_of(functions(notebooks)[0], notebooks)
