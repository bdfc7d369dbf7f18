"""The pages that describe the course describe the one the bundle ships: its lessons, modules and tasks.

Everything is derived from exercises/tasks.py (written by `make stubs`) and the lesson sources, so
a lesson, task or module added or removed makes these tests name the page and the line to fix. The README
the kit writes for a course without one of its own is held to the same tables.
"""

import re

import pytest

from autograder.authoring.learner_readme import readme
from autograder.course.lessons import LESSONS, read_lesson
from exercises.tasks import TASKS
from tests.conftest import ROOT

README = "graphcourse/learner/README.md"  # the graph course's own README for its bundle
GENERATED = "README.md the kit writes"  # what a course without a README of its own gets
PAGES = (README, "docs/learners.md", "docs/instructors.md")
MAKEFILES = ("graphcourse/learner/Makefile", "autograder/authoring/skeleton/Makefile", "Makefile")
NUMBERS = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}
_COUNT = re.compile(
    r"(?<![\w.])(?P<number>\d+|" + "|".join(NUMBERS) + r")\s+(?:(?:lesson|stub)\s+)?"
    r"(?P<what>lessons|modules|tasks|functions|notebooks)\b",
    re.IGNORECASE,
)
_NOT_A_TOTAL = re.compile(r"(?:\b(?:first|last|other|these|those|earlier|later|next)|'s)\s+$", re.IGNORECASE)  # a part
_TASK_LIST = re.compile(r"TASK=([\w|]+)")
_MODULE_FILE = re.compile(r"exercises/(\w+)\.py")


def course():
    """The course as the bundle ships it: lessons in order, each with its notebook, tasks and modules."""
    lessons, seen = [], set()
    for number, lesson in enumerate(LESSONS, start=1):
        tasks, modules = [], []
        for cell in read_lesson(lesson)[0]:
            if cell.kind != "reference":
                continue
            for name in cell.settings["names"]:
                if TASKS.get(name) == cell.settings["module"] and name not in seen:
                    seen.add(name)
                    tasks.append(name)
                    modules.append(cell.settings["module"])
        lessons.append(
            {"number": number, "notebook": lesson.notebook, "tasks": tasks, "modules": list(dict.fromkeys(modules))}
        )
    return lessons


COURSE = course()
COUNTS = {
    "lessons": len(COURSE),
    "notebooks": len(COURSE),
    "modules": len(set(TASKS.values())),
    "tasks": len(TASKS),
    "functions": sum(1 for task in TASKS if not task[:1].isupper()),  # Tape and Var are classes
}


def help_lines(path):
    """A Makefile's help: its ``## `` comment lines."""
    return "\n".join(
        line[3:] for line in (ROOT / path).read_text(encoding="utf-8").splitlines() if line.startswith("## ")
    )


def texts():
    return {
        **{page: (ROOT / page).read_text(encoding="utf-8") for page in PAGES},
        **{path: help_lines(path) for path in MAKEFILES},
        GENERATED: readme(ROOT / "solutions", ROOT / "notebooks"),
    }


def wrong_claims(text):
    """Every count of lessons, modules, tasks, functions or notebooks, and every TASK= list, that is not the
    course's."""
    wrong = []
    for match in _COUNT.finditer(text):
        if _NOT_A_TOTAL.search(text[max(0, match.start() - 12) : match.start()]):
            continue
        said = match["number"].lower()
        said = int(said) if said.isdigit() else NUMBERS[said]
        what = match["what"].lower()
        if said != COUNTS[what]:
            wrong.append(f"{match.group(0)!r}: the course has {COUNTS[what]} {what}")
    for match in _TASK_LIST.finditer(text):
        named = match[1].split("|")
        if len(named) > 1 and named != list(TASKS):
            wrong.append(f"TASK={match[1]}: the tasks are {'|'.join(TASKS)}")
        elif len(named) == 1 and named[0] not in TASKS and named[0].lower() != "name":
            wrong.append(f"TASK={named[0]}: no such task")
    for match in _MODULE_FILE.finditer(text):
        if not (ROOT / "exercises" / f"{match[1]}.py").is_file():
            wrong.append(f"{match.group(0)}: no such file in the bundle")
    return wrong


def table(text, first_header):
    """The rows of every markdown table whose first header cell is ``first_header``, as lists of cells."""
    rows, inside = [], False
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells and cells[0] == first_header:
            inside = True
            continue
        if cells is None:
            inside = False
        elif inside and not set(cells[0]) <= set("-: "):
            rows.append(cells)
    return rows


def names(cell):
    """The names in backticks of a table cell, each cut before its first parenthesis."""
    return [name.split("(")[0].split("/")[-1] for name in re.findall(r"`([^`]+)`", cell)]


@pytest.mark.parametrize("where", (*PAGES, *MAKEFILES, GENERATED))
def test_no_page_names_a_count_or_task_that_is_not_the_courses(where):
    assert wrong_claims(texts()[where]) == [], where


def test_the_counts_are_the_bundles():
    """Six lessons, five modules and 13 tasks today: the pages are held to these, whatever they become."""
    assert COUNTS["lessons"] == len(LESSONS) and sum(len(lesson["tasks"]) for lesson in COURSE) == len(TASKS)
    assert {module for lesson in COURSE for module in lesson["modules"]} == set(TASKS.values())


@pytest.mark.parametrize("page", [README, "docs/learners.md", GENERATED])
def test_the_lesson_table_is_the_course(page):
    """The table of lessons gives every lesson in order, with its notebook, its tasks and its module."""
    rows = table(texts()[page], "lesson")
    lessons = [row for row in rows if len(row) == 4]
    assert [row[0] for row in lessons] == [str(lesson["number"]) for lesson in COURSE], page
    for row, lesson in zip(lessons, COURSE):
        assert names(row[1]) == [lesson["notebook"]], row
        assert names(row[2]) == lesson["tasks"], row
        assert [name[:-3] for name in names(row[3])] == lesson["modules"], row


@pytest.mark.parametrize("page", [README, "docs/learners.md"])
def test_the_task_table_lists_every_task_in_lesson_order(page):
    rows = table(texts()[page], "task")
    assert [names(row[0])[0] for row in rows] == list(TASKS), page


@pytest.mark.parametrize("page", [README, GENERATED])
def test_the_readme_says_what_to_hand_in_for_every_lesson(page):
    """The bundle's README: one row per lesson, naming its notebook and each module its tasks are in."""
    rows = [row for row in table(texts()[page], "lesson") if len(row) == 2]
    assert [row[0] for row in rows] == [str(lesson["number"]) for lesson in COURSE]
    for row, lesson in zip(rows, COURSE):
        said = names(row[1])
        assert said[0] == lesson["notebook"] and [name[:-3] for name in said[1:]] == lesson["modules"], row


@pytest.mark.parametrize("page", [README, GENERATED])
def test_every_module_and_task_is_named_in_the_bundles_readme(page):
    text = texts()[page]
    for task in TASKS:
        assert f"`{task}" in text, task
    for module in set(TASKS.values()):
        assert f"exercises/{module}.py" in text, module


def test_the_check_finds_the_old_descriptions():
    """What the pages said of an earlier course is caught: its counts, its TASK= list, its files."""
    old = (
        "In two lessons you write the core of a small differentiation engine: four functions.\n"
        "make check [TASK=evaluate|inputs_of|users_of|backward]\n"
        "what is graded is your two lesson notebooks and exercises/engine.py"
    )
    assert len(wrong_claims(old)) == 5, wrong_claims(old)
    assert wrong_claims("the first two lessons; lessons 1 and 2's four tasks (TASK=name)") == []
