"""The kit's feedback page: nbgrader's feedback template, opened by a summary of the grade cells.

notebooks/nbgrader_config.py points generate_feedback's HTMLExporter at ``TEMPLATE_FILE`` of
``TEMPLATE_NAME`` in ``template_dirs()`` (templates/graphkit_feedback/ of this package, which
extends nbgrader's own feedback/index.html.j2), and ends GenerateFeedback.preprocessors with
``GradeCellSummary``. The template then starts the page with one table row per grade
cell: a readable title and the grade id, linked to the cell's detail further down,
points earned out of possible, and a one-line message. The titles come from the
course's table of grade cells (autograder/course/lessons.py), never from the learner's
notebook; the message is the first line of what grading wrote under the cell, which
may quote the learner's values: the template escapes everything it shows.
"""

from pathlib import Path

import nbgrader
from nbgrader.preprocessors import NbGraderPreprocessor

TEMPLATE_NAME = "graphkit_feedback"  # the folder, whose conf.json names nbgrader's "feedback" as its base
TEMPLATE_FILE = "graphkit_feedback.html.j2"  # not index.html.j2: that name is nbgrader's page, which it extends
TEMPLATES = Path(__file__).resolve().parent / "templates"
NBGRADER_TEMPLATES = Path(nbgrader.__file__).resolve().parent / "server_extensions" / "formgrader" / "templates"
MESSAGE_CHARS = 200  # a longer one-line message is cut, with an ellipsis; the cell's detail has all of it
METADATA_KEY = "graphkit_feedback"  # cell metadata the template reads: {"title": ..., "message": ...}


def template_dirs():
    """The template folders of the feedback exporter: the kit's, then nbgrader's (the one extended)."""
    return [str(TEMPLATES), str(NBGRADER_TEMPLATES)]


def title_of(grade_id):
    """A readable name for a grade cell, from the course's table of grade cells; '' for an unknown id."""
    from autograder.course.lessons import grade_cells

    cell = grade_cells().get(grade_id)
    if cell is None:
        return ""
    if cell.function:
        return f"{cell.function}: the hidden checks"
    names = ", ".join(sorted(cell.solution))
    return f"the answer {names}" if names else f"the answer judged by {cell.judge}"


def _text(value):
    return "".join(value) if isinstance(value, list) else str(value or "")


def one_line(outputs, grade_id=""):
    """The first line grading wrote under a cell (its stdout), then the first failure's message, on one line.

    A leading "<grade_id>: " is dropped: the summary table names the cell already.
    """
    said = []
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            first = _text(output.get("text")).strip().splitlines()
            if first:
                said.append(first[0].strip().removeprefix(f"{grade_id}: ") if grade_id else first[0].strip())
            break
    errors = [o for o in outputs if o.get("output_type") == "error"]
    if errors:
        said.append(" ".join(_text(errors[0].get("evalue")).split()) or _text(errors[0].get("ename")))
    line = " \u2014 ".join(part for part in said if part)
    return line if len(line) <= MESSAGE_CHARS else line[: MESSAGE_CHARS - 1].rstrip() + "\u2026"


class GradeCellSummary(NbGraderPreprocessor):
    """Give every grade cell the title and one-line message that the feedback page's summary table shows.

    An nbgrader preprocessor, so it is enabled wherever the course config lists it.
    """

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            info = cell.metadata.get("nbgrader", {})
            if not info.get("grade"):
                continue
            cell.metadata[METADATA_KEY] = {
                "title": title_of(info.get("grade_id", "")),
                "message": one_line(cell.get("outputs", []), info.get("grade_id", "")) if cell.cell_type == "code" else "",
            }
        return nb, resources
