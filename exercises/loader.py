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

import importlib
import types
from pathlib import Path

from exercises import notebook, widget_answers
from exercises.notebook import MAX_LOOKED_AT, drop_unwritten_stubs, replaced_stubs  # noqa: F401 - callers import these from the loader too

PACKAGES = {"exercises": "exercises"}  # a name for --impl -> the package holding one module per lesson
DEFAULT_MODULE = "graph"  # the module of lessons 1 and 2


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
        return notebook.code_cells(notebook.read(path), path.name, answers=widget_answers.chunks)[0]
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
        except Exception as err:  # noqa: BLE001 - a broken cell should not hide the others
            print(f"{label}: {type(err).__name__}: {err}")
    return loaded


def load_implementation(spec, packages=PACKAGES, module=DEFAULT_MODULE):
    """Lesson module ``module`` of ``spec``: a package named in ``packages``, or a path for load_path."""
    if spec in packages:
        return importlib.import_module(f"{packages[spec]}.{module}")
    return load_path(spec, module)
