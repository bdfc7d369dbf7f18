"""nbgrader's autograde step without a kernel: grade cells are scored by the hidden checks.

notebooks/nbgrader_config.py puts ``HiddenChecks`` in the place of nbgrader's
``Execute`` in ``Autograde.autograde_preprocessors``; the rest of nbgrader's list
(``SaveAutoGrades``, ``LimitOutput``, late penalties, metadata checks) runs as before.
Where ``Execute`` would run the notebook in a kernel, ``HiddenChecks`` grades the
notebook's code in the sandbox (autograder/grading/cellgrades.py) and writes each grade
cell's outcome as the outputs nbgrader reads scores from (``utils.determine_grade``):

    full marks      a stdout stream listing the checks that passed
    partial credit  that stream, then an execute_result holding the score (e.g. "20"),
                    then one error output per failed check with its teaching message
    no marks        the stream and the error outputs (an error output scores 0)

and last, after everything that decides the score, a display_data output (image/svg+xml)
for each picture of a failed check's graph (graphcourse/picture.py): nbgrader reads
a score from error and execute_result outputs only, so a picture changes none.

Grade cells are found by grade id, and the grade ids, points and which cells are
tests come from the gradebook (the course's source notebooks), not from the
submitted notebook's own metadata. ``restore_metadata`` (autograder/course/metadata.py) goes one step further for
the batch (autograder/pipeline/batch.py): before nbgrader sees a notebook, it rewrites every
cell's nbgrader metadata from the release notebook, by grade id, so duplicated or
edited metadata can neither crash nbgrader nor change a score.

``HiddenChecks.cache_dir``: a folder of graded records (see cellgrades) and of
``problems.json`` ({"student/assignment/notebook.ipynb": message} for notebooks that
could not be read). The batch grades every notebook in parallel before nbgrader runs,
so here each record is normally read from the cache; without a cache_dir, or on a
miss, the notebook is graded on the spot.
"""

import json
from pathlib import Path

from nbformat.v4 import new_output
from nbgrader import utils
from nbgrader.api import Gradebook
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool, Dict, Unicode

from autograder.course import active
from autograder.grading import cellgrades, provenance

PROBLEMS_FILE = "problems.json"


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
    for svg in outcome.get("pictures", ()):
        text = getattr(active.part("picture"), "ALT", "a picture of the failed check")  # the course's words for it
        outputs.append(new_output("display_data", data={"image/svg+xml": svg, "text/plain": text}))
    return outputs


def settings_of(limits, shrink):
    """The HiddenChecks settings that decide a grade, as plain data (the batch reads them from the course config)."""
    return {"limits": dict(limits), "shrink": bool(shrink)}


def course_settings(config):
    """settings_of() from a loaded course config (its c.HiddenChecks section)."""
    section = config.get("HiddenChecks", {})
    return settings_of(section.get("limits", {}), section.get("shrink", True))


PROVENANCE = "graphkit_provenance"  # the notebook's metadata key: provenance.short() for its feedback page


class HiddenChecks(NbGraderPreprocessor):
    """Score every grade cell from the hidden checks instead of executing the notebook."""

    cache_dir = Unicode(
        "",
        help="Folder of graded records and problems.json written by autograder.pipeline.batch; '' grades on the spot.",
    ).tag(config=True)
    limits = Dict(
        {},
        help="Overrides of the sandbox's limits (autograder/sandbox/limits.py, Limits), "
        "e.g. {'submission_seconds': 120}.",
    ).tag(config=True)
    shrink = Bool(
        True,
        help="Let Hypothesis shrink a failing property example to the smallest one before feedback shows it.",
    ).tag(config=True)

    def settings(self):
        """What of this configuration decides a grade: part of every record's cache key."""
        return settings_of(self.limits, self.shrink)

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        filename = f"{info['notebook']}.ipynb"
        with Gradebook(info["db_url"]) as gradebook:
            points, tests = course_cells(gradebook, info["notebook"], info["assignment"])
        problem = read_problems(self.cache_dir).get(f"{info['student']}/{info['assignment']}/{filename}")
        key = None
        if problem:
            record = cellgrades.problem_record(problem, points, filename)
        else:
            chunks, notes = cellgrades.chunks_of(nb, filename, tests)
            key = cellgrades.record_key(chunks, points, notes, self.settings())
            record = cellgrades.load_record(self.cache_dir, key) if self.cache_dir else None
            if record is None:
                self.log.info("Grading %s of %s with the hidden checks", filename, info["student"])
                record = cellgrades.grade_record(chunks, points, notes, filename, self.settings())
                if self.cache_dir:
                    cellgrades.save_record(self.cache_dir, key, record)
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if cell.cell_type == "code" and utils.is_grade(cell) and grade_id in points:
                cell.outputs = cell_outputs(record["cells"][grade_id])
                cell.execution_count = None
        nb.metadata[PROVENANCE] = provenance.short(self.made(info, filename, key))  # whatever the hand-in said there
        return nb, resources

    def made(self, info, filename, key):
        """The grade's provenance: the record's stamp in the batch's cache (and the hand-in it mirrored), else now."""
        if not (self.cache_dir and key):
            return provenance.of_grading()
        handin = Path(self.cache_dir).parent / "submitted" / info["student"] / info["assignment"] / filename
        return provenance.of_handin(handin, provenance.stamp(self.cache_dir, key))
