"""Read the code cells of a Jupyter notebook, standard library only: nothing here runs code.

The grader reads hand-ins with it, and `make stubs` copies it, as it is, to the course's
exercises/notebook.py, which the public tests' loader uses (in the kit and in the learner's
bundle alike). So it imports nothing but the standard library. What a course adds to a
notebook's code (answers its widgets saved, say) comes through ``answers``.
"""

import ast
import json

# Notebook metadata where the kit keeps a notebook's checked answers once it drops its widgets' state.
KEPT = "widget_answers"

# At most this much of a hand-in's code is parsed where it is only looked at (for stubs), chunk by chunk
# in order: a parse costs some 500 bytes of memory and a few microseconds per byte of code, and a lesson's
# code is some 30,000 characters. A chunk past it is looked at as defining nothing; running it parses it,
# in the sandbox.
MAX_LOOKED_AT = 400_000


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


def no_answers(_nb, _name):
    """A course whose notebooks save no answers outside their cells."""
    return [], []


def code_cells(nb, name, is_test=is_test_cell, answers=no_answers):
    """([(label, code)], [notes]) for the learner's code cells of a notebook (a parsed JSON dict).

    Labels name the cell by its position, as "lesson.ipynb cell 7"; test cells (``is_test``)
    and empty cells are left out. ``answers(nb, name)`` gives ([(label, code)], [notes]) of
    what the course reads from the notebook besides its cells: those chunks come first, so
    that an answer cell which sets the same variable itself wins.
    """
    chunks, notes = answers(nb, name)
    chunks, notes = list(chunks), list(notes)
    for index, cell in enumerate(cells_of(nb), start=1):
        if not isinstance(cell, dict):
            continue
        if cell.get("cell_type") != "code":
            if nbgrader_meta(cell).get("solution") and cell_source(cell).strip():
                notes.append(
                    f"{name} cell {index}: an answer cell turned into a {cell.get('cell_type')} cell, so its "
                    "code was not run; change it back to a code cell"
                )
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


def _tree(code):
    """The module's syntax tree, or None when the code does not parse."""
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _stubs_of(tree):
    """{name: (first line, last line)} of top-level functions whose body only raises NotImplementedError."""
    stubs = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        raised = body[0].exc if len(body) == 1 and isinstance(body[0], ast.Raise) else None
        raised = raised.func if isinstance(raised, ast.Call) else raised
        if isinstance(raised, ast.Name) and raised.id == "NotImplementedError":
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            stubs[node.name] = (first, node.end_lineno)
    return stubs


def _looked_at(chunks):
    """[(functions defined, their stubs {name: (first, last)})] for each chunk, each parsed once, within
    MAX_LOOKED_AT."""
    found, left = [], MAX_LOOKED_AT
    for _label, code in chunks:
        tree = _tree(code) if len(code) <= left else None
        left -= len(code) if tree is not None else 0
        if tree is None:
            found.append((set(), {}))
        else:
            found.append(({node.name for node in tree.body if isinstance(node, ast.FunctionDef)}, _stubs_of(tree)))
    return found


def _written(looked_at):
    """The functions some chunk really defines (not as a stub)."""
    written = set()
    for defined, stubs in looked_at:
        written |= defined - set(stubs)
    return written


def replaced_stubs(chunks):
    """The stub functions that drop_unwritten_stubs leaves out, because another chunk defines them."""
    looked_at = _looked_at(chunks)
    return sorted({name for _defined, stubs in looked_at for name in stubs} & _written(looked_at))


def drop_unwritten_stubs(chunks):
    """Remove stub definitions (body: raise NotImplementedError) that another chunk really defines.

    In a folder holding both the lesson notebooks and a module of exercises/, a learner works
    in one of them; the untouched stubs of the other must not replace that work.
    """
    looked_at = _looked_at(chunks)
    written = _written(looked_at)
    kept = []
    for (label, code), (_defined, stubs) in zip(chunks, looked_at):
        lines = code.splitlines()
        for name, (first, last) in sorted(stubs.items(), key=lambda item: -item[1][0]):
            if name in written:
                lines[first - 1 : last] = [f"# ({name}: unwritten stub left out; another file defines it)"]
        kept.append((label, "\n".join(lines)))
    return kept
