"""nbgrader's autograde step without a kernel: grade cells are scored by the hidden checks.

notebooks/nbgrader_config.py puts ``HiddenChecks`` in the place of nbgrader's
``Execute`` in ``Autograde.autograde_preprocessors``; the rest of nbgrader's list
(``SaveAutoGrades``, ``LimitOutput``, late penalties, metadata checks) runs as before.
Where ``Execute`` would run the notebook in a kernel, ``HiddenChecks`` grades the
notebook's code in the sandbox (autograder/cellgrades.py) and writes each grade
cell's outcome as the outputs nbgrader reads scores from (``utils.determine_grade``):

    full marks      a stdout stream listing the checks that passed
    partial credit  that stream, then an execute_result holding the score (e.g. "20"),
                    then one error output per failed check with its teaching message
    no marks        the stream and the error outputs (an error output scores 0)

Grade cells are found by grade id, and the grade ids, points and which cells are
tests come from the gradebook (the course's source notebooks), not from the
submitted notebook's own metadata. ``restore_metadata`` goes one step further for
the batch (autograder/batch.py): before nbgrader sees a notebook, it rewrites every
cell's nbgrader metadata from the release notebook, by grade id, so duplicated or
edited metadata can neither crash nbgrader nor change a score.

``HiddenChecks.cache_dir``: a folder of graded records (see cellgrades) and of
``problems.json`` ({"student/assignment/notebook.ipynb": message} for notebooks that
could not be read). The batch grades every notebook in parallel before nbgrader runs,
so here each record is normally read from the cache; without a cache_dir, or on a
miss, the notebook is graded on the spot.
"""

import copy
import json
import re
from pathlib import Path

from nbformat.v4 import new_output
from nbgrader import utils
from nbgrader.api import Gradebook
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor
from traitlets import Unicode

from autograder import cellgrades

PROBLEMS_FILE = "problems.json"
KEPT_METADATA = ("nbgrader", "deletable", "editable")  # what the release decides about a cell


def read_problems(cache_dir):
    if not cache_dir:
        return {}
    try:
        problems = json.loads((Path(cache_dir) / PROBLEMS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return problems if isinstance(problems, dict) else {}


def course_cells(gradebook, notebook_id, assignment_id):
    """({grade_id: points} of the notebook's autograded cells, the grade ids of its test cells)."""
    notebook = gradebook.find_notebook(notebook_id, assignment_id)
    answers = {cell.name for cell in notebook.solution_cells}
    tests = {cell.name: float(cell.max_score) for cell in notebook.grade_cells if cell.name not in answers}
    return tests, set(tests)


def cell_outputs(outcome):
    """The outputs that make nbgrader's determine_grade read outcome["score"] out of outcome["max"]."""
    outputs = []
    if outcome["summary"]:
        outputs.append(new_output("stream", name="stdout", text=outcome["summary"] + "\n"))
    if outcome["errors"] and outcome["score"] > 0:
        outputs.append(new_output("execute_result", data={"text/plain": f"{outcome['score']:g}"}, execution_count=None))
    for error in outcome["errors"]:
        lines = error["message"].splitlines()
        outputs.append(new_output("error", ename="HiddenCheckFailed", evalue=error["summary"], traceback=lines))
    return outputs


class HiddenChecks(NbGraderPreprocessor):
    """Score every grade cell from the hidden checks instead of executing the notebook."""

    cache_dir = Unicode(
        "",
        help="Folder of graded records and problems.json written by autograder.batch; '' grades on the spot.",
    ).tag(config=True)

    def preprocess(self, nb, resources):
        from autograder.course_folder import kill_point  # here: course_folder imports this module

        kill_point("in_autograde")  # crash tests: the submission is in the gradebook, its grades are not
        info = resources["nbgrader"]
        filename = f"{info['notebook']}.ipynb"
        with Gradebook(info["db_url"]) as gradebook:
            points, tests = course_cells(gradebook, info["notebook"], info["assignment"])
        problem = read_problems(self.cache_dir).get(f"{info['student']}/{info['assignment']}/{filename}")
        if problem:
            record = cellgrades.problem_record(problem, points, filename)
        else:
            chunks, notes = cellgrades.chunks_of(nb, filename, tests)
            key = cellgrades.record_key(chunks, points, notes)
            record = cellgrades.load_record(self.cache_dir, key) if self.cache_dir else None
            if record is None:
                self.log.info("Grading %s of %s with the hidden checks", filename, info["student"])
                record = cellgrades.grade_record(chunks, points, notes, filename)
                if self.cache_dir:
                    cellgrades.save_record(self.cache_dir, key, record)
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if cell.cell_type == "code" and utils.is_grade(cell) and grade_id in points:
                cell.outputs = cell_outputs(record["cells"][grade_id])
                cell.execution_count = None
        return nb, resources


class HideHiddenTests(ClearHiddenTests):
    """nbgrader's ClearHiddenTests for feedback, on test cells only: a learner's own cells show as written.

    A stray "BEGIN HIDDEN TESTS" line in a learner's cell would make ClearHiddenTests
    stop that learner's feedback; here it is simply part of their code.
    """

    def preprocess_cell(self, cell, resources, index):
        if utils.is_grade(cell) and not utils.is_solution(cell):
            return super().preprocess_cell(cell, resources, index)
        return cell, resources


# ---------------------------------------------------------------- submitted metadata


def _set_cell_type(cell, cell_type):
    if cell.get("cell_type") == cell_type:
        return
    cell["cell_type"] = cell_type
    if cell_type == "code":
        cell.setdefault("outputs", [])
        cell.setdefault("execution_count", None)
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


def _is_locked(meta):
    return bool(meta.get("locked") or (meta.get("grade") and not meta.get("solution")))


def restore_metadata(nb, release):
    """A copy of a submitted notebook (nbformat 4 dict) whose nbgrader metadata is the release's.

    Matching is by grade id. As nbgrader's DeduplicateIds does, the last cell carrying a
    grade id keeps it; every other cell that carries nbgrader metadata loses it and is an
    ordinary code cell of the learner. A matched cell gets the release cell's metadata,
    cell type and, if it is read-only (a test cell or a locked cell), its source. A test
    cell the learner deleted is put back after the cell that precedes it in the release.
    The learner's own code is never touched.
    """
    nb = copy.deepcopy(nb)
    wanted = {}
    for cell in release["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id:
            wanted[grade_id] = cell
    seen = set()
    for cell in reversed(nb["cells"]):
        meta = cell.get("metadata")
        if not isinstance(meta, dict):
            cell["metadata"] = meta = {}
        nbgrader = meta.get("nbgrader")
        grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
        if not isinstance(grade_id, str) or grade_id not in wanted or grade_id in seen:
            for key in KEPT_METADATA:
                meta.pop(key, None)
            continue
        seen.add(grade_id)
        model = wanted[grade_id]
        for key in KEPT_METADATA:
            meta.pop(key, None)
            if key in model["metadata"]:
                meta[key] = copy.deepcopy(model["metadata"][key])
        _set_cell_type(cell, model["cell_type"])
        if _is_locked(meta["nbgrader"]):
            cell["source"] = copy.deepcopy(model["source"])
    order = list(wanted)
    for index, grade_id in enumerate(order):
        meta = wanted[grade_id]["metadata"]["nbgrader"]
        if grade_id in seen or not meta.get("grade") or meta.get("solution"):
            continue
        present = [i for i, c in enumerate(nb["cells"]) if c["metadata"].get("nbgrader", {}).get("grade_id") in order[:index]]
        nb["cells"].insert(present[-1] + 1 if present else 0, copy.deepcopy(wanted[grade_id]))
        seen.add(grade_id)
    _unique_ids(nb)
    return nb


def _unique_ids(nb):
    """Give every cell an id no other cell has (nbformat 4.5 requires them)."""
    nb["nbformat_minor"] = max(5, int(nb.get("nbformat_minor", 0)))
    taken = set()
    for index, cell in enumerate(nb["cells"]):
        base = cell.get("id")
        if not isinstance(base, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,56}", base):
            base = f"cell-{index}"
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = f"{base}-{n}"
        cell["id"] = candidate
        taken.add(candidate)
