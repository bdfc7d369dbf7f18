"""What the kit's own tests share: paths, the reference and stub sources, nbgrader runs, graded zoo entries.

Test modules import the constants and helpers from here (``from tests.conftest import ...``);
pytest picks up the fixtures by itself.
"""

import datetime
import fcntl
import io
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import autograder.nbgrader.speedups  # noqa: F401 -- first, as in the kit's processes: before any test imports jsonschema
from autograder.authoring.stubs import stub_source
from autograder.course.paths import NOTEBOOKS, REFERENCE, ROOT
from autograder.nbgrader import env

# The demo course's due dates are relative to the day it is graded: one day for the whole run (every worker
# and every process it starts inherits it), so that a run straddling midnight grades alike before and after.
os.environ.setdefault("GRAPHKIT_DEMO_DAY", datetime.datetime.now(datetime.timezone.utc).date().isoformat())

REFERENCE_SOURCE = REFERENCE.read_text(encoding="utf-8")
STUB_SOURCE = stub_source(REFERENCE_SOURCE)

__all__ = ["NOTEBOOKS", "REFERENCE", "REFERENCE_SOURCE", "ROOT", "STUB_SOURCE", "nbgrader", "finish", "prepared_course"]

# The files whose module fixtures take longest, longest first. make test hands whole files to its
# workers in collection order, so these start first and the short files fill in around them.
LONGEST_FIRST = (
    "test_zoo.py",
    "test_cli_parity.py",
    "test_adversarial.py",
    "test_release.py",
    "test_notebooks.py",
    "test_batch_kill.py",
    "test_provenance.py",
    "test_sandbox_bounds.py",
    "test_hostile_handins.py",
    "test_pictures.py",
    "test_outside_course.py",
    "test_busy_machine.py",
    "test_batch.py",
    "test_cli.py",
    "test_gradescope.py",
    "test_formgrader.py",
    "test_nbgrader_glue.py",
    "test_public_bounds.py",
    "test_memory_measure.py",
    "test_jobs.py",
    "test_lms.py",
    "test_manual_grades.py",
    "test_foundation.py",
    "test_fixture_course.py",
)


def pytest_collection_modifyitems(config, items):
    """Long files first (LONGEST_FIRST); tests marked e2e (a browser, a real install) or postgres (a database
    server) run only when the marker expression names them (make e2e, make test-postgres)."""
    rank = {name: number for number, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file keeps its own order
    asked = config.option.markexpr or ""
    apart = [marker for marker in ("e2e", "postgres") if marker not in asked]  # each run by a make target of its own
    kept = [item for item in items if not any(item.get_closest_marker(marker) for marker in apart)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def nbgrader(course, *args):
    """Start the venv's ``nbgrader ARGS`` in ``course`` as the kit runs it (tests/.. never configures it)."""
    return env.command(
        *args,
        cwd=course,
        config_dir=course.parent / "jupyter_config",
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def finish(process, what="nbgrader", seconds=300):
    """Wait for a child process: (exit code, stdout, a report naming ``what`` for failed checks)."""
    try:
        stdout, stderr = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
    return process.returncode, stdout, f"{what} exited {process.returncode}:\n{stdout}\n{stderr[-4000:]}"


_SHARED = {}  # "root": a folder every process of this test run can see (the workers of make test too)


@pytest.fixture(scope="session", autouse=True)
def _shared_folder(request, tmp_path_factory):
    """Under pytest-xdist, the workers of one run share the parent of their temporary folders."""
    base = tmp_path_factory.getbasetemp()
    _SHARED["root"] = base.parent if hasattr(request.config, "workerinput") else base


def draw_pictures(cache_dir):
    """Draw every lesson's pictures into a batch's cache folder, in one child, as a batch's feedback step draws them."""
    from autograder.nbgrader.course_pictures import draw_ahead, wait

    wait(draw_ahead(sorted((NOTEBOOKS / "source").glob("*/*.ipynb")), str(cache_dir)))


def prepared_course(out, stream=None, pictures=True):
    """A Course at the new folder ``out``, prepared as Course.prepare leaves it (the course copied in,
    generate_assignment run, due dates set) and, unless ``pictures`` is False (a test that writes no
    feedback), with the lessons' pictures drawn into its cache, by copying a folder prepared once per
    test run: the first process that needs it prepares it under a lock, and every process copies it."""
    from autograder.nbgrader.course_folder import Course  # only the files that grade cohorts pay for nbgrader's imports

    root = _SHARED.get("root") or Path(tempfile.mkdtemp(prefix="graphkit-"))
    template = root / "prepared_course"
    with open(root / "prepared_course.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (template / "ready").exists():
            shutil.rmtree(template, ignore_errors=True)
            Course(template / "course", io.StringIO()).prepare()
            (template / "ready").touch()
        if pictures and not (template / "drawn").exists():
            draw_pictures(template / "course" / "cache")
            (template / "drawn").touch()
    shutil.copytree(template / "course", out)
    return Course(out, stream or io.StringIO())
