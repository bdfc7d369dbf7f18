"""The learner's tasks come in the lessons' order: exercises/tasks.py, `make check`'s list and its "next"."""

from types import SimpleNamespace

from autograder.authoring import stubs as stubgen
from autograder.course.lessons import discover, functions, read_lesson
from exercises import pytest_impl
from exercises.tasks import TASKS


def lesson_of_each_task():
    """{task: the number of the first lesson whose reference cells bring it in}, from the lesson sources."""
    found = {}
    for number, lesson in enumerate(discover(drafts=True), start=1):
        for cell in read_lesson(lesson)[0]:
            if cell.kind == "reference":
                for name in cell.settings["names"]:
                    if name in TASKS and TASKS[name] == cell.settings["module"]:
                        found.setdefault(name, number)
    return found


def test_tasks_follow_the_lessons():
    """Every task belongs to a lesson, and exercises/tasks.py lists them lesson by lesson, never by module name."""
    lessons = lesson_of_each_task()
    assert set(lessons) == set(TASKS)
    numbers = [lessons[task] for task in TASKS]
    assert numbers == sorted(numbers), dict(zip(TASKS, numbers))
    graded = [task for task in functions() if task in TASKS]
    assert graded == [task for task in TASKS if task in graded], "the graded functions come in the same order"


def test_the_order_comes_from_the_lessons_not_from_a_list():
    """Given the lessons' order reversed, make stubs writes the tasks reversed: nothing else decides it."""
    texts = {name: path.read_text(encoding="utf-8") for name, path in stubgen.reference_modules().items()}
    order = stubgen.lesson_order()
    namespace = {}
    exec(stubgen.tasks_source(texts, order[::-1]), namespace)
    assert list(namespace["TASKS"]) == list(TASKS)[::-1]


def _reporter(outcomes):
    """A stand-in for pytest's terminal reporter: {task: outcome of its one test}, in the order given."""
    stats = {}
    for task, outcome in outcomes.items():
        props = [("task", task)] + ([("unwritten", True)] if outcome == pytest_impl.UNWRITTEN else [])
        stats.setdefault(outcome, []).append(SimpleNamespace(when="call", user_properties=props))
    return SimpleNamespace(stats=stats)


def test_after_lesson_two_next_names_the_tape():
    """Lessons 1 and 2's tasks written, the rest not: the summary lists the tasks in lesson order, and next is Tape."""
    earlier = {"evaluate", "inputs_of", "users_of", "backward"}
    outcomes = {task: "passed" if task in earlier else pytest_impl.UNWRITTEN for task in sorted(TASKS)}  # by name
    tally = pytest_impl._tally(_reporter(outcomes))
    assert list(tally) == list(TASKS)
    step = pytest_impl._next_step(tally)
    assert step.startswith("next: write Tape in exercises/tape.py"), step
    assert "make check TASK=Tape" in step
