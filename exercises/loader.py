"""Load the code the public tests run against, for conftest.py's --impl option.

    load_implementation("exercises")                 # the module exercises/graph.py
    load_implementation("exercises", module="tape")  # the module exercises/tape.py
    load_implementation("path/to/graph.py")          # any module file
    load_implementation("path/to/lesson.ipynb")
    load_implementation("notebooks")                 # a folder: its notebooks, then any graph.py, in name order

A file's code runs in a fresh module. A notebook's code cells run one at a
time, in order, so a broken cell is reported and does not hide what the other
cells define; nbgrader's test cells are skipped, and IPython-only lines
(``%magic``, ``!shell``) are commented out.
"""

import ast
import importlib
import types
from pathlib import Path

from exercises import notebook

PACKAGES = {"exercises": "exercises"}  # a name for --impl -> the package holding one module per lesson
DEFAULT_MODULE = "graph"  # the module of lessons 1 and 2


# At most this much of a hand-in's code is parsed where it is only looked at (for stubs), chunk by chunk
# in order: a parse costs some 500 bytes of memory and a few microseconds per byte of code, and a lesson's
# code is some 30,000 characters. A chunk past it is looked at as defining nothing; running it parses it,
# in the sandbox.
MAX_LOOKED_AT = 400_000


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
    """[(functions defined, their stubs {name: (first, last)})] for each chunk, each parsed once, within MAX_LOOKED_AT."""
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

    In a folder holding both the lesson notebooks and exercises/graph.py, a learner
    works in one of them; the untouched stubs of the other must not replace that work.
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


def _chunks(path, module=DEFAULT_MODULE):
    """(label, code) pairs for a module file, a notebook, or a folder holding them (and ``module``.py files)."""
    if path.is_dir():
        def visible(p):
            return not any(part.startswith(".") for part in p.relative_to(path).parts)

        found = sorted(filter(visible, path.rglob("*.ipynb"))) + sorted(filter(visible, path.rglob(f"{module}.py")))
        if not found:
            raise FileNotFoundError(f"{path}: no notebook or {module}.py in this folder")
        return drop_unwritten_stubs([chunk for p in found for chunk in _chunks(p)])
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file or folder; check the path given to --impl")
    if path.suffix == ".ipynb":
        return notebook.code_cells(notebook.read(path), path.name)[0]
    if path.suffix == ".py":
        return [(path.name, path.read_text(encoding="utf-8"))]
    raise ValueError(f"{path}: --impl takes a .py module, an .ipynb notebook or a folder")


def load_path(path, module=DEFAULT_MODULE):
    """A module holding what the file's code (or the notebooks' code cells, or a folder's) defines."""
    path = Path(path)
    loaded = types.ModuleType("submission")
    loaded.__file__ = str(path)
    for label, code in _chunks(path, module):
        try:
            exec(compile(code, label, "exec"), loaded.__dict__)
        except Exception as err:  # a broken cell should not hide the others
            print(f"{label}: {type(err).__name__}: {err}")
    return loaded


def load_implementation(spec, packages=PACKAGES, module=DEFAULT_MODULE):
    """Lesson module ``module`` of ``spec``: a package named in ``packages``, or a path for load_path."""
    if spec in packages:
        return importlib.import_module(f"{packages[spec]}.{module}")
    return load_path(spec, module)
