"""Turn one file a learner handed in (a module or a notebook) into code chunks to run; grading/reading.py reads a
whole hand-in (a folder too) with these.

Nothing here runs the learner's code: it only reads files. A notebook's code
cells become separate chunks, so one broken cell does not hide the functions
defined in the others; nbgrader test cells (grade cells that are not solution
cells) are left out, since the grader runs its own checks. So are the course's
own teaching cells, as the lessons ship them (``teaching``): a picture or a plot
needs what the sandbox does not have, and what it does is not the learner's
work. A teaching cell the learner changed is theirs, and runs.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course import cells as notebook
from autograder.course.lessons import teaching_sources
from autograder.course.saved_answers import answer_chunks
from autograder.grading.json_cost import too_costly

MAX_FILE_BYTES = 5_000_000  # a submission file larger than this is not read, nor more code than this
MAX_NOTEBOOK_BYTES = 100_000_000  # a notebook may be larger: its outputs (plots, long prints) do not count
MAX_CELLS = 10_000  # cells of any kind: a lesson notebook has a few dozen, and each one costs the pipeline time


class SubmissionError(Exception):
    """The submission cannot be read at all; the message names the file and the fix."""


@dataclass
class Chunk:
    label: str  # where it came from, e.g. "graph.ipynb cell 7"
    code: str


@dataclass
class Submission:
    origin: Path
    chunks: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # problems that did not stop grading

    @property
    def source(self) -> str:
        return "\n\n".join(chunk.code for chunk in self.chunks)


def _read_text(path: Path, limit=MAX_FILE_BYTES) -> str:
    if path.is_symlink():
        raise SubmissionError(f"{path}: is a symbolic link; hand in the file itself, not a link to it")
    if not path.is_file():
        raise SubmissionError(f"{path}: no such file; check the path")
    size = path.stat().st_size
    if size > limit:
        raise SubmissionError(
            f"{path}: {size} bytes is too large to grade; clear the notebook's outputs and hand it in again"
        )
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is not code
    except UnicodeDecodeError as err:
        raise SubmissionError(
            f"{path}: not UTF-8 text (byte {err.start}); save the file as UTF-8 and hand it in again"
        ) from None


def from_module(path: Path) -> Submission:
    text = _read_text(path)
    if not text.strip():
        raise SubmissionError(f"{path}: the file is empty; save your work in it and hand it in again")
    return Submission(origin=path, chunks=[Chunk(path.name, text)])


def read_notebook_json(path: Path):
    """A notebook file parsed as JSON (a dict); SubmissionError naming the file and the fix when it cannot be."""
    text = _read_text(path, MAX_NOTEBOOK_BYTES)
    if not text.strip():
        raise SubmissionError(
            f"{path}: the notebook is empty; save it in JupyterLab (File > Save) and hand it in again"
        )
    costly = too_costly(text.encode("utf-8"))  # before json.loads: a text's cost is its size, not its count of values
    if costly:
        raise SubmissionError(
            f"{path}: not read: {costly}, far more than any notebook Jupyter saves; open it in "
            "JupyterLab, clear its outputs (Edit > Clear Outputs of All Cells), remove what was added "
            "to its metadata, save it and hand it in again"
        )
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as err:
        raise SubmissionError(
            f"{path}: not valid notebook JSON (line {err.lineno}: {err.msg}); "
            "open it in JupyterLab, save it, and hand it in again"
        ) from None
    except (ValueError, RecursionError):  # numbers too long to read, or lists nested too deeply
        raise SubmissionError(
            f"{path}: not valid notebook JSON; open it in JupyterLab, save it, and hand it in again"
        ) from None
    if not isinstance(nb, dict):
        raise SubmissionError(f"{path}: not a notebook (the top level is not a JSON object); hand in the .ipynb file")
    return nb


def from_notebook(path: Path, is_test=notebook.is_test_cell) -> Submission:
    """A notebook's code cells as chunks; ``is_test`` tells the test cells to leave out."""
    return from_notebook_json(read_notebook_json(path), path, is_test)


def teaching(cell, sources=None):
    """A cell of the course's own, unchanged: an ungraded code cell whose code is one of the lessons' teaching cells."""
    meta = notebook.nbgrader_meta(cell)
    if meta.get("grade") or meta.get("solution"):
        return False
    sources = teaching_sources() if sources is None else sources
    return notebook.cell_source(cell).strip() in sources


def from_notebook_json(nb, path, is_test=notebook.is_test_cell) -> Submission:
    """A parsed notebook's code cells as chunks, test cells and unchanged teaching cells left out; messages name
    ``path``."""
    path = Path(path)
    sources = teaching_sources()

    def left_out(cell):
        return is_test(cell) or teaching(cell, sources)

    if not isinstance(nb, dict):
        raise SubmissionError(f"{path}: not a notebook (the top level is not a JSON object); hand in the .ipynb file")
    sub = Submission(origin=path)
    version = nb.get("nbformat", 4)
    if type(version) is int and version < 4:
        sub.notes.append(f"{path.name}: old notebook format v{version}; read as well as possible")
    try:
        cells = len(notebook.cells_of(nb))
        if cells > MAX_CELLS:
            raise SubmissionError(
                f"{path}: {cells:,} cells, more than the {MAX_CELLS:,} a notebook may have to be graded; "
                "delete the cells you added (empty or repeated ones too) and hand it in again"
            )
        chunks, notes = notebook.code_cells(nb, path.name, left_out, answer_chunks)
    except ValueError:
        raise SubmissionError(
            f"{path}: the notebook has no list of cells; open it in JupyterLab, save it, and hand it in again"
        ) from None
    sub.chunks = [Chunk(label, code) for label, code in chunks]
    sub.notes.extend(notes)
    if not sub.chunks:
        raise SubmissionError(
            f"{path}: the notebook has no code cells; hand in the lesson notebook with your code in it"
        )
    code_bytes = sum(len(chunk.code.encode()) for chunk in sub.chunks)
    if code_bytes > MAX_FILE_BYTES:
        raise SubmissionError(
            f"{path}: its code cells hold {code_bytes} bytes, too many to grade; remove the data pasted into them"
        )
    return sub
