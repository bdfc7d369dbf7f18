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

The page stands alone: it loads no script (the lessons need no maths, so nbgrader's
MathJax is left out), and ``GradeCellSummary`` tidies what nbgrader would show:

- a comment row only for a comment a grader wrote (the gradebook's manual comment),
  or nbgrader's own "No response." on a cell graded by hand; an autograded cell's
  automatic "No response." is dropped;
- a score a grader set by hand is said so in the summary, beside what the hidden checks gave;
- no ``Out[ ]:`` row: the score output HiddenChecks writes for nbgrader under a
  partly right grade cell is dropped from the page (the score shows in the cell's header);
- text between backticks in what grading wrote is shown as code, never with its backticks;
- a cell of the course's own that draws a picture in JupyterLab shows the picture,
  drawn from the source notebook with the reference's code (course_pictures.py), when
  the learner's cell is still the course's; otherwise a line says why there is none.
"""

import re
from pathlib import Path

import nbgrader
from nbformat.v4 import new_output
from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

TEMPLATE_NAME = "graphkit_feedback"  # the folder, whose conf.json names nbgrader's "feedback" as its base
TEMPLATE_FILE = "graphkit_feedback.html.j2"  # not index.html.j2: that name is nbgrader's page, which it extends
TEMPLATES = Path(__file__).resolve().parent / "templates"
NBGRADER_TEMPLATES = Path(nbgrader.__file__).resolve().parent / "server_extensions" / "formgrader" / "templates"
MESSAGE_CHARS = 200  # a longer one-line message is cut, with an ellipsis; the cell's detail has all of it
METADATA_KEY = "graphkit_feedback"  # cell metadata the template reads: {"title", "message", "parts"}
AUTO_COMMENT = "No response."  # what nbgrader's SaveAutoGrades writes on a solution cell left as handed out
BACKTICKS = re.compile(r"`+([^`\n]+?)`+")  # `code` or ``code``
PICTURE_SAID = (
    "The picture this cell draws in JupyterLab, drawn with the reference's code (feedback never runs yours):\n"
)
NO_PICTURE = (
    "No picture here: this cell is no longer the lesson's as handed out, and grading never runs your code "
    "outside its sandbox. Run the cell in JupyterLab to see your picture.\n"
)


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


def code_parts(text):
    """[(text, is code)] of a message: what stands between backticks becomes a code part, without its backticks."""
    parts, at = [], 0
    for match in BACKTICKS.finditer(text):
        if match.start() > at:
            parts.append((text[at : match.start()], False))
        parts.append((match.group(1), True))
        at = match.end()
    if at < len(text):
        parts.append((text[at:], False))
    return parts


def plain(text):
    """Text of an output without backticks: `code` becomes ‘code’, as a reader writes it in plain text."""
    return BACKTICKS.sub(lambda match: f"\u2018{match.group(1)}\u2019", text)


def _unquoted(output):
    """An output HiddenChecks wrote, its text with no backticks."""
    if output.get("output_type") == "stream":
        output["text"] = plain(_text(output.get("text")))
    elif output.get("output_type") == "error":
        output["evalue"] = plain(_text(output.get("evalue")))
        output["traceback"] = [plain(_text(line)) for line in output.get("traceback", [])]
    return output


def hand_note(grade_id, marks):
    """'graded by hand: 40 (the hidden checks gave 30)' for a grade cell a grader scored, else ''."""
    auto, manual = marks.get(grade_id, (None, None))
    if manual is None:
        return ""
    gave = f" (the hidden checks gave {auto:g})" if auto is not None else ""
    return f"graded by hand: {manual:g}{gave}"


class GradeCellSummary(NbGraderPreprocessor):
    """Give every grade cell the title and one-line message that the feedback page's summary table shows,
    keep only the comments a grader wrote, drop the score outputs, and show the course's pictures.

    An nbgrader preprocessor, so it is enabled wherever the course config lists it. It runs
    after nbgrader's GetGrades, so each cell's score and comment are the gradebook's; which
    of them a grader set by hand is read from the gradebook (autograder/nbgrader/manual_grades.py).
    """

    def _marks(self, resources):
        """({grade cell: (auto, manual score)}, {cell: manual comment}) of this notebook; None without a gradebook."""
        found = resources.get("nbgrader", {})
        if not all(found.get(key) for key in ("db_url", "notebook", "assignment", "student")):
            return None
        from nbgrader.api import Gradebook

        from autograder.nbgrader.manual_grades import notebook_marks

        with Gradebook(found["db_url"]) as gradebook:
            return notebook_marks(gradebook, found["notebook"], found["assignment"], found["student"])

    def _pictures(self, resources):
        """{cell id: {"source", "png"}} of the course's drawing cells in this notebook ({} if none can be drawn)."""
        from autograder.course.paths import NOTEBOOKS
        from autograder.nbgrader.course_pictures import pictures

        found = resources.get("nbgrader", {})
        if not (found.get("assignment") and found.get("notebook")):
            return {}
        source = NOTEBOOKS / "source" / found["assignment"] / f"{found['notebook']}.ipynb"
        if not source.is_file():
            return {}
        cache_dir = self.config.get("HiddenChecks", {}).get("cache_dir", "") or ""
        return pictures(source, cache_dir)

    def preprocess(self, nb, resources):
        marks = self._marks(resources)
        grades, comments = marks or ({}, {})
        drawn = self._pictures(resources)
        for cell in nb.cells:
            info = cell.metadata.get("nbgrader", {})
            grade_id = info.get("grade_id", "")
            if utils.is_solution(cell) or utils.is_task(cell):
                by_hand = utils.is_grade(cell) or utils.is_task(cell)  # a cell a grader scores: no test does
                if marks is not None:
                    said = comments.get(grade_id) or (info.get("comment") if by_hand else None)
                else:  # no gradebook to ask: every comment but nbgrader's automatic one on an autograded cell
                    said = info.get("comment") if by_hand or info.get("comment") != AUTO_COMMENT else None
                info["comment"] = said or None
            if not info.get("grade") and not info.get("solution") and cell.cell_type == "code":
                self._picture(cell, drawn)
            if not info.get("grade"):
                continue
            message = one_line(cell.get("outputs", []), grade_id) if cell.cell_type == "code" else ""
            if cell.cell_type == "code":
                cell.outputs = [
                    _unquoted(o) for o in cell.get("outputs", []) if o.get("output_type") != "execute_result"
                ]
            message = " \u2014 ".join(part for part in (hand_note(grade_id, grades), message) if part)
            cell.metadata[METADATA_KEY] = {
                "title": title_of(grade_id),
                "message": message,
                "parts": [list(part) for part in code_parts(message)],
            }
        return nb, resources

    @staticmethod
    def _picture(cell, drawn):
        """Under a course cell that draws: the picture, if the learner's cell is still the course's; else why none."""
        if not drawn:
            return
        source = cell.get("source", "")
        course = drawn.get(cell.get("id", "")) or next((d for d in drawn.values() if d["source"] == source), None)
        if course is None:
            return
        if course["source"] != source:
            cell.outputs = [new_output("stream", name="stdout", text=NO_PICTURE)]
            return
        cell.outputs = [
            new_output("stream", name="stdout", text=PICTURE_SAID),
            new_output("display_data", data={"image/png": course["png"], "text/plain": "the picture this cell draws"}),
        ]
