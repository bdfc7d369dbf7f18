"""The pictures a lesson's own cells draw, worked out from its source notebook, for the feedback pages.

A lesson notebook draws its graphs in cells of the course's own (no nbgrader role, handed
out as they are). Autograding runs no kernel, so in a feedback page those cells would
show nothing. Here the course's source notebook (notebooks/source/, the one holding
the reference's code in its solution cells) is run once, cell by cell, in a child
process of its own: every code cell but the test cells, each cell's printing thrown
away, and every cell whose last expression gives a figure (an object with
``_repr_png_``, as IPython shows it) leaves that picture, by cell id. No learner code
runs: the feedback page puts a picture under a learner's cell only when that cell is
the course's own, unchanged (autograder/nbgrader/feedback_page.py).

The pictures are kept in ``cache_dir/pictures/`` (the batch's cache folder), by a hash
of the source notebook and of everything that can change a grade, so a course is
drawn once; without a cache folder they are kept for the life of the process.

    python -m autograder.nbgrader.course_pictures SOURCE.ipynb    # the child: JSON on stdout
"""

import ast
import base64
import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from autograder.files import write_atomic

SECONDS = 120  # the child is stopped after this long: the pages then say the lesson's pictures could not be drawn
FOLDER = "pictures"
_drawn = {}  # hash: pictures, for this process


def _run_cell(source, namespace):
    """Run one cell's code; return the value of its last expression (None if it ends with a statement)."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<lesson cell>", "exec"), namespace)  # the course's own notebook, never a learner's
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<lesson cell>", "eval"), namespace)  # as above


def draw_all(nb):
    """{cell id: {"source": text, "png": base64 text}} of the cells of a source notebook (a JSON dict) that draw."""
    namespace = {"__name__": "__lesson__"}
    drawn = {}
    for cell in nb.get("cells", []):
        info = cell.get("metadata", {}).get("nbgrader", {})
        if cell.get("cell_type") != "code" or (info.get("grade") and not info.get("solution")):
            continue
        source = "".join(cell.get("source", ""))
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                value = _run_cell(source, namespace)
                png = value._repr_png_() if hasattr(value, "_repr_png_") else None
        except Exception:  # noqa: BLE001 - a cell that fails draws nothing; the next ones still run
            continue
        if isinstance(png, bytes) and cell.get("id"):
            drawn[cell["id"]] = {"source": source, "png": base64.b64encode(png).decode("ascii")}
    return drawn


def _key(source):
    from autograder.grading.cellgrades import fingerprint

    return hashlib.sha256(source.read_bytes() + b"\0" + fingerprint().encode()).hexdigest()


def pictures(source, cache_dir=""):
    """{cell id: {"source", "png"}} of a source notebook's drawing cells; {} when they could not be drawn."""
    source = Path(source).resolve()
    try:
        key = _key(source)
    except OSError:
        return {}
    if key in _drawn:
        return _drawn[key]
    kept = Path(cache_dir) / FOLDER / f"{key}.json" if cache_dir else None
    if kept is not None and kept.is_file():
        try:
            _drawn[key] = json.loads(kept.read_text(encoding="utf-8"))
            return _drawn[key]
        except ValueError:
            pass
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0")
    try:
        done = subprocess.run(
            [sys.executable, "-m", __name__, str(source)],
            capture_output=True,
            text=True,
            timeout=SECONDS,
            env=env,
            cwd=str(source.parent),
            check=False,
        )
        drawn = json.loads(done.stdout) if done.returncode == 0 else {}
    except (OSError, ValueError, subprocess.TimeoutExpired):
        drawn = {}
    if kept is not None and drawn:
        write_atomic(kept, json.dumps(drawn, sort_keys=True) + "\n")
    _drawn[key] = drawn
    return drawn


def main(argv=None):
    path = Path((argv or sys.argv[1:])[0])
    drawn = draw_all(json.loads(path.read_text(encoding="utf-8")))
    sys.stdout.write(json.dumps(drawn, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
