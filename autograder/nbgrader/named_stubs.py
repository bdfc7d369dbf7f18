"""generate_assignment's ClearSolutions, with stubs that say which task is not written yet.

nbgrader replaces every solution region with one fixed ``ClearSolutions.code_stub``. Here the
stub may hold ``{task}``, filled in region by region: ``task area`` for a region inside
``def area(...)``, ``task Model`` for one inside a method of ``class Model`` (the task is the
top-level function or class around the region, as `make check` and exercises/tasks.py name it),
``answer ORDER`` (or ``answers ASSIGN_X, FIRST_WRONG``) for a region that sets answer variables.
A learner who runs an unwritten cell then reads, for example,
``NotImplementedError: task area: not written yet`` instead of a bare error.

notebooks/nbgrader_config.py puts ``NamedStubs`` in the place of ``ClearSolutions`` in
``GenerateAssignment.preprocessors``; its settings are ClearSolutions' own.
"""

import re

from nbgrader.preprocessors import ClearSolutions

from autograder.course.markers import task_at

_ASSIGNED = re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)", re.MULTILINE)
_HOLE = "\x00task\x00"  # stands for {task} while nbgrader replaces the regions; no cell holds a NUL


def tasks_of(source, begin="BEGIN SOLUTION", end="END SOLUTION"):
    """What each solution region of a cell's source is for, in order: "task NAME", "answer(s) NAMES", or ""."""
    lines = source.split("\n")
    found, region, start = [], None, 0
    for number, line in enumerate(lines, start=1):
        if region is None and begin in line:
            region, start = [], number
        elif region is not None and end in line:
            task = task_at(lines, start)
            names = list(dict.fromkeys(_ASSIGNED.findall("\n".join(region))))
            if task:
                found.append(f"task {task}")
            elif names:
                found.append(f"{'answer' if len(names) == 1 else 'answers'} {', '.join(names)}")
            else:
                found.append("")
            region = None
        elif region is not None:
            region.append(line)
    return found


def task_of(source, begin="BEGIN SOLUTION", end="END SOLUTION"):
    """What the first solution region of a cell's source is for (see ``tasks_of``), or ""."""
    return next(iter(tasks_of(source, begin, end)), "")


class NamedStubs(ClearSolutions):
    """ClearSolutions whose code stub names each region's task where the stub holds ``{task}``."""

    def preprocess_cell(self, cell, resources, cell_index):
        language = resources["language"]
        template = self.code_stub[language]
        if cell.cell_type != "code" or "{task}" not in template:
            return super().preprocess_cell(cell, resources, cell_index)
        tasks = tasks_of(cell.source, self.begin_solution_delimeter, self.end_solution_delimeter)
        stubs = self.code_stub
        self.code_stub = {**stubs, language: template.replace("{task}", _HOLE)}
        try:
            cell, resources = super().preprocess_cell(cell, resources, cell_index)
        finally:
            self.code_stub = stubs
        pieces = cell.source.split(_HOLE)
        filled = [pieces[0]]
        for index, piece in enumerate(pieces[1:]):
            filled += [(tasks[index] if index < len(tasks) else "") or "this cell", piece]
        cell.source = "".join(filled)
        return cell, resources
