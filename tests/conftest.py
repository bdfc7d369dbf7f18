"""What the kit's own tests share: paths, the reference and stub sources, nbgrader runs, graded zoo entries.

Test modules import the constants and helpers from here (``from tests.conftest import ...``);
pytest picks up the fixtures by itself.
"""

import subprocess

from autograder.authoring.stubs import stub_source
from autograder.course.paths import NOTEBOOKS, REFERENCE, ROOT
from autograder.nbgrader import env

REFERENCE_SOURCE = REFERENCE.read_text(encoding="utf-8")
STUB_SOURCE = stub_source(REFERENCE_SOURCE)

__all__ = ["NOTEBOOKS", "REFERENCE", "REFERENCE_SOURCE", "ROOT", "STUB_SOURCE", "nbgrader", "finish"]


def pytest_collection_modifyitems(config, items):
    """Tests marked e2e (a browser, a real install) run only when the marker expression names them (make e2e)."""
    if "e2e" in (config.option.markexpr or ""):
        return
    kept = [item for item in items if item.get_closest_marker("e2e") is None]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def nbgrader(course, *args):
    """Start the venv's ``nbgrader ARGS`` in ``course`` as the kit runs it (tests/.. never configures it)."""
    return env.command(*args, cwd=course, config_dir=course.parent / "jupyter_config", text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(process, what="nbgrader", seconds=300):
    """Wait for a child process: (exit code, stdout, a report naming ``what`` for failed checks)."""
    try:
        stdout, stderr = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
    return process.returncode, stdout, f"{what} exited {process.returncode}:\n{stdout}\n{stderr[-4000:]}"
