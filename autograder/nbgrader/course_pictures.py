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
drawn once; without a cache folder they are kept for the life of the process. A batch draws
every lesson its feedback needs in one child before its workers write pages (``draw_ahead``):
one start-up for all lessons, and no lesson drawn by two workers at once.

    python -m autograder.nbgrader.course_pictures SOURCE.ipynb    # the child: JSON on stdout
    python -m autograder.nbgrader.course_pictures --keep PARENT SOURCE.ipynb KEPT.json ...   # each into its file,
                                                                  # dying with process PARENT
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
    from autograder.grading.provenance import fingerprint

    return hashlib.sha256(source.read_bytes() + b"\0" + fingerprint().encode()).hexdigest()


def _kept(source, cache_dir):
    return Path(cache_dir) / FOLDER / f"{_key(source)}.json"


def _child(args, cwd):
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0")
    return [sys.executable, "-m", __name__, *map(str, args)], {"env": env, "cwd": str(cwd)}


def draw_ahead(sources, cache_dir):
    """Start one child drawing every source notebook whose pictures cache_dir does not keep yet; return it (None when
    there is nothing to draw). ``pictures`` then finds them in cache_dir; ``wait`` for the child first."""
    missing = []
    for source in dict.fromkeys(Path(s).resolve() for s in sources):
        try:
            kept = _kept(source, cache_dir)
        except OSError:
            continue
        if not kept.is_file():
            missing += [source, kept]
    if not missing:
        return None
    command, options = _child(["--keep", os.getpid(), *missing], missing[0].parent)
    try:
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **options)
    except OSError:
        return None
    child.lessons = len(missing) // 2
    return child


def wait(child):
    """Wait for a ``draw_ahead`` child, stopped after SECONDS per lesson; a lesson it did not draw is drawn again
    by ``pictures``, in a child of its own."""
    if child is None:
        return
    try:
        child.wait(timeout=SECONDS * child.lessons)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


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
    command, options = _child([source], source.parent)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=SECONDS, check=False, **options)
        drawn = json.loads(done.stdout) if done.returncode == 0 else {}
    except (OSError, ValueError, subprocess.TimeoutExpired):
        drawn = {}
    if kept is not None and drawn:
        write_atomic(kept, json.dumps(drawn, sort_keys=True) + "\n")
    _drawn[key] = drawn
    return drawn


def _fresh_figures():
    """Leave matplotlib as a new process has it, for the next notebook drawn in the same child."""
    if "matplotlib.pyplot" in sys.modules:
        import matplotlib
        from matplotlib import pyplot

        pyplot.close("all")
        matplotlib.rc_file_defaults()


def _die_with(parent):
    """The child is killed when the process that started it dies, even by SIGKILL: a killed batch leaves nothing."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it died before the line above
        os._exit(1)


def keep_all(pairs):
    """Draw each source notebook in turn, in its own folder as ``pictures``' child would, and keep what it draws."""
    for source, kept in pairs:
        os.chdir(source.parent)
        sys.path[0] = str(source.parent)
        try:
            drawn = draw_all(json.loads(source.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
        finally:
            _fresh_figures()
        if drawn:
            write_atomic(kept, json.dumps(drawn, sort_keys=True) + "\n")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[0] == "--keep":
        _die_with(int(argv[1]))
        keep_all(zip(map(Path, argv[2::2]), map(Path, argv[3::2])))
        return 0
    path = Path(argv[0])
    drawn = draw_all(json.loads(path.read_text(encoding="utf-8")))
    sys.stdout.write(json.dumps(drawn, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
