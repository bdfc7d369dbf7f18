"""generate_assignment's ClearSolutions, with stubs that say which task is not written yet.

nbgrader replaces every solution region with one fixed ``ClearSolutions.code_stub``. Here the
stub may hold ``{task}``, filled in per cell from the region it replaces: ``task evaluate`` for
a region inside ``def evaluate(...)``, ``answer ORDER`` (or ``answers ASSIGN_X, FIRST_WRONG``)
for a region that sets answer variables. A learner who runs an unwritten cell then reads, for
example, ``NotImplementedError: task evaluate: not written yet`` instead of a bare error.

notebooks/nbgrader_config.py puts ``NamedStubs`` in the place of ``ClearSolutions`` in
``GenerateAssignment.preprocessors``; its settings are ClearSolutions' own.
"""

import re

from nbgrader.preprocessors import ClearSolutions

_DEF = re.compile(r"^\s*def\s+([A-Za-z_]\w*)\s*\(", re.MULTILINE)
_ASSIGNED = re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)", re.MULTILINE)


def task_of(source, begin="BEGIN SOLUTION", end="END SOLUTION"):
    """What the solution region of a cell's source is for: "task NAME", "answer(s) NAMES", or ""."""
    lines = source.split("\n")
    starts = [number for number, line in enumerate(lines) if begin in line]
    if not starts:
        return ""
    functions = _DEF.findall("\n".join(lines[: starts[0]]))
    if functions:
        return f"task {functions[-1]}"
    region = []
    for line in lines[starts[0] + 1:]:
        if end in line:
            break
        region.append(line)
    names = list(dict.fromkeys(_ASSIGNED.findall("\n".join(region))))
    if not names:
        return ""
    return f"{'answer' if len(names) == 1 else 'answers'} {', '.join(names)}"


class NamedStubs(ClearSolutions):
    """ClearSolutions whose code stub names the cell's task where the stub holds ``{task}``."""

    def preprocess_cell(self, cell, resources, cell_index):
        language = resources["language"]
        template = self.code_stub[language]
        if cell.cell_type != "code" or "{task}" not in template:
            return super().preprocess_cell(cell, resources, cell_index)
        task = task_of(cell.source, self.begin_solution_delimeter, self.end_solution_delimeter) or "this cell"
        stubs = self.code_stub
        self.code_stub = {**stubs, language: template.replace("{task}", task)}
        try:
            return super().preprocess_cell(cell, resources, cell_index)
        finally:
            self.code_stub = stubs
