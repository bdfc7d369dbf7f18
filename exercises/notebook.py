"""Read the code cells of a Jupyter notebook, standard library only.

Both the public tests' loader (exercises/loader.py) and the kit's grader read
notebooks with ``code_cells``; the grader adds its own size limits and messages.
Nothing here runs code.
"""

import json

from exercises.widget_answers import answers_chunk, saved_answers


def cell_source(cell):
    """A cell's source as one string, whether stored as a string or a list of lines."""
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(line for line in source if isinstance(line, str))
    return source if isinstance(source, str) else ""


def nbgrader_meta(cell):
    """A cell's nbgrader metadata, or {} when it is missing or not a mapping."""
    meta = cell.get("metadata")
    meta = meta.get("nbgrader") if isinstance(meta, dict) else None
    return meta if isinstance(meta, dict) else {}


def is_test_cell(cell):
    """An nbgrader test cell: graded, and not the learner's own answer."""
    meta = nbgrader_meta(cell)
    return bool(meta.get("grade") and not meta.get("solution"))


def strip_magics(code):
    """Comment out IPython-only lines (%magic, !shell) so the cell is plain Python."""
    return "\n".join(("# " + line) if line.lstrip().startswith(("%", "!")) else line for line in code.splitlines())


def cells_of(nb):
    """The notebook's cells (dicts only), from nbformat 4 or the worksheets of nbformat 3."""
    version = nb.get("nbformat", 4)
    if type(version) is int and version < 4:
        sheets = nb.get("worksheets")
        sheets = [ws for ws in sheets if isinstance(ws, dict)] if isinstance(sheets, list) else []
        cells = [c for ws in sheets if isinstance(ws.get("cells"), list) for c in ws["cells"]]
        cells = [dict(c, source=c.get("source", c.get("input", ""))) if isinstance(c, dict) else c for c in cells]
    else:
        cells = nb.get("cells", [])
    if not isinstance(cells, list):
        raise ValueError("the notebook has no list of cells")
    return cells


def code_cells(nb, name, is_test=is_test_cell):
    """([(label, code)], [notes]) for the learner's code cells of a notebook (a parsed JSON dict).

    Labels name the cell by its position, as "graph.ipynb cell 7"; test cells
    (``is_test``) and empty cells are left out. The answers the notebook's widgets saved
    (exercises/widget_answers.py) come first, as one chunk of assignments.
    """
    answers, notes = saved_answers(nb, name)
    chunks = []
    if answers:  # first, so that an answer cell which sets the variable itself wins
        chunks.append((f"{name} widget answers", answers_chunk(answers)))
    for index, cell in enumerate(cells_of(nb), start=1):
        if not isinstance(cell, dict):
            continue
        if cell.get("cell_type") != "code":
            if nbgrader_meta(cell).get("solution") and cell_source(cell).strip():
                notes.append(f"{name} cell {index}: an answer cell turned into a {cell.get('cell_type')} cell, so its "
                             "code was not run; change it back to a code cell")
            continue
        if is_test(cell):
            continue  # the grader brings its own checks
        code = strip_magics(cell_source(cell))
        if code.strip():
            chunks.append((f"{name} cell {index}", code))
    return chunks, notes


def read(path):
    """A notebook file as a JSON dict; ValueError naming the file and the fix when it cannot be read."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as err:
        raise ValueError(f"{path}: not a readable notebook ({err}); open it in JupyterLab and save it again") from None
    if not isinstance(nb, dict):
        raise ValueError(f"{path}: not a notebook (the top level is not a JSON object)")
    return nb
