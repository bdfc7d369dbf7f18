"""How the kit runs nbgrader: the one place that sets up nbgrader's environment.

Two things matter. nbgrader creates a gradebook by running ``alembic``, which it
looks up on PATH, so the interpreter's own bin folder goes first on PATH. And
only the course's config may configure nbgrader: a personal ~/.jupyter (an
nbgrader_config.py there) must not change the course, so JUPYTER_CONFIG_DIR
points at an empty folder.
"""

import contextlib
import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent  # the venv's bin: nbgrader, alembic


def environment(config_dir, base=None):
    """A copy of ``base`` (default os.environ) for running nbgrader, with ``config_dir`` (made empty if new) as
    Jupyter's."""
    Path(config_dir).mkdir(parents=True, exist_ok=True)
    env = dict(os.environ if base is None else base)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    env["JUPYTER_CONFIG_DIR"] = str(config_dir)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


@contextlib.contextmanager
def alembic_on_path():
    """For nbgrader's Python API in this process: alembic findable on PATH while it runs."""
    before = os.environ.get("PATH", "")
    os.environ["PATH"] = str(BIN) + os.pathsep + before
    try:
        yield
    finally:
        os.environ["PATH"] = before


# nbgrader's own command line, started after autograder/nbgrader/speedups.py is imported: importing it keeps
# jsonschema from building the parsers of an optional package no notebook schema uses (about 3 s of every start).
# Nothing else of the command changes: speedups' measures apply only where the kit installs them.
_LAUNCH = "import autograder.nbgrader.speedups; from nbgrader.apps.nbgraderapp import main; main()"


def command(*args, cwd, config_dir, stock=False, **popen):
    """Start ``nbgrader ARGS`` in ``cwd`` with the course's environment; return the Popen.

    ``stock=True`` starts ``python -m nbgrader`` exactly as an nbgrader install would, import costs included.
    """
    start = [sys.executable, "-m", "nbgrader"] if stock else [sys.executable, "-c", _LAUNCH]
    return subprocess.Popen([*start, *args], cwd=cwd, env=environment(config_dir), **popen)
