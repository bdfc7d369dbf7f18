"""The learner bundle's README for a course that gives none: its lessons, notebooks, tasks and modules, read from
the course's lesson sources and references, never typed."""

from dataclasses import dataclass
from pathlib import Path

from autograder.authoring.stubs import tasks_of
from autograder.course import active
from autograder.course.lessons import LESSONS, parse
from autograder.course.paths import EXERCISES_FOLDER, NOTEBOOKS_FOLDER, PUBLIC_TESTS_FOLDER, reference_modules


@dataclass(frozen=True)
class Row:
    """One lesson as the README shows it: its number, notebook, the tasks it brings in and their modules."""

    number: int
    notebook: str  # the notebook's path in the bundle
    tasks: tuple
    modules: tuple


def rows(references: Path, notebooks: Path):
    """One Row per lesson, in lesson order: a task is shown in the first lesson whose reference cells bring it in."""
    modules = {name: path.read_text(encoding="utf-8") for name, path in reference_modules(references).items()}
    tasks = {task: module for module, text in modules.items() for task in tasks_of(text)}
    seen, found = set(), []
    for number, lesson in enumerate(LESSONS, start=1):
        path = lesson.source_path(notebooks)
        brought = []
        for cell in parse(path.read_text(encoding="utf-8"), f"{path.parent.name}/{path.name}"):
            if cell.kind != "reference":
                continue
            for name in cell.settings["names"]:
                if tasks.get(name) == cell.settings["module"] and name not in seen:
                    seen.add(name)
                    brought.append(name)
        found.append(
            Row(
                number,
                f"{NOTEBOOKS_FOLDER}/{lesson.assignment}/{lesson.notebook}",
                tuple(brought),
                tuple(dict.fromkeys(tasks[name] for name in brought)),
            )
        )
    return found


def _code(names, template="{}"):
    return ", ".join(f"`{template.format(name)}`" for name in names) or "(answer cells only)"


def readme(references: Path, notebooks: Path):
    """The README's text."""
    lessons = rows(references, notebooks)
    module_file = f"{EXERCISES_FOLDER}/{{}}.py"
    first = next((row.tasks[0] for row in lessons if row.tasks), "NAME")
    table = "".join(
        f"| {row.number} | `{row.notebook}` | {_code(row.tasks)} | {_code(row.modules, module_file)} |\n"
        for row in lessons
    )
    hand_in = "".join(
        f"| {row.number} | `{Path(row.notebook).name}`"
        + "".join(f", and `{module_file.format(m)}` if your code is there" for m in row.modules)
        + " |\n"
        for row in lessons
    )
    tests = f"{EXERCISES_FOLDER}/{PUBLIC_TESTS_FOLDER}"
    return f"""# {active.name().rpartition(".")[2]}

The lessons, in order, with the tasks each one asks you to write and the module
of `{EXERCISES_FOLDER}/` that holds them:

| lesson | notebook | tasks | module |
|---|---|---|---|
{table}
The docstrings in each module of `{EXERCISES_FOLDER}/` give the full contract.

## Getting started

You need `python3` (3.10 or newer) and `make`. The first `make` target you run
creates `.venv/` and installs what `requirements.txt` lists (with uv when it can get it, else pip), once.

```
make lab                      # open the lesson notebooks in JupyterLab (as root too)
make check                    # every public test against the modules of {EXERCISES_FOLDER}/
{f"make check TASK={first}":<29} # one task's public tests, named as in the table above
make help                     # these targets, and the tasks in lesson order
```

## What to do

Work through the notebooks in lesson order. Each cell holding `# YOUR CODE HERE`
and `raise NotImplementedError(...)` is yours: replace the `raise` line with
your answer or your code. If you prefer plain Python files, write a lesson's
tasks in its module of `{EXERCISES_FOLDER}/` instead (the table above says which). Write
each task in one place, either its notebook or its module.

## Running the tests

`make check` runs the public tests in `{tests}/`. Without `make`:

```
python -m pytest {tests}
```

Every push to your repository runs the public tests on GitHub
(`.github/workflows/public-tests.yml`; see the *Actions* tab).

## Submitting

Your instructor says where to hand in, and which lessons are due when. For
each lesson, what is graded is its notebook, and the lesson's module if you
wrote its tasks there:

| lesson | hand in |
|---|---|
{hand_in}
Before you hand in a notebook, run *Kernel → Restart Kernel and Run All
Cells…* and save it. Then press **Validate** in the notebook's toolbar: it
runs the notebook from a clean start and lists every check cell that fails.

## How your work is graded

The grader runs more checks than the public tests, on the same contract. Each
check that fails names the rule it enforces and the input that shows the
problem. Passing every public test is a good sign, not a guarantee of full marks.
"""
