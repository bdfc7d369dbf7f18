"""What a new user waits for, measured as they meet it: make bench's setup step and its no-change make grade.

    BENCH_SETUP=1 make bench      # with the rest of the bench
    python -m autograder.tools.first_run

``setup_figures`` clones the kit's repository (its committed state) into a temporary folder and
times, there, ``make .venv/.ready`` (a clean venv: the Makefile's installer, uv or pip), the first
``make grade`` (the course's store, the demo cohort graded cold) and a second ``make grade``, which
has nothing to do. It writes the figures into the "setup" blocks of docs/performance.md and the
README (autograder/tools/marked.py), so the setup time a reader is told is the one last measured.

``no_change_seconds`` times make grade's command on the demo cohort in this checkout, once it has
graded it: the answer of a run that finds nothing changed (autograder/pipeline/unchanged.py).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autograder.course.paths import ROOT
from autograder.tools import marked

PAGES = (ROOT / "docs" / "performance.md", ROOT / "README.md")  # each holds a "setup" block
COMMAND = "make bench BENCH_SETUP=1"
NO_CHANGE_RUNS = 3  # timed runs of a make grade with nothing to do; their median is reported


def _timed(command, cwd, env=None):
    """Wall seconds of ``command`` run in ``cwd``; CalledProcessError, with its output, when it fails."""
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return time.perf_counter() - started


def _clean_environment():
    """This process's environment without the variables of its own venv, so the clone's make builds one of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "MAKEFLAGS", "MAKELEVEL")}
    venv_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


def setup_figures(work):
    """{"setup", "first_grade", "no_change"}: wall seconds on a fresh clone of the kit in ``work``."""
    clone = Path(work) / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = _clean_environment()
    return {
        "setup": _timed(["make", "--no-print-directory", ".venv/.ready"], clone, env),
        "first_grade": _timed(["make", "--no-print-directory", "grade", "JOBS=2"], clone, env),
        "no_change": _timed(["make", "--no-print-directory", "grade", "JOBS=2"], clone, env),
    }


def installer(clone_venv):
    """ "uv" when the venv holds uv (the Makefile's installer got it from the registry), else "pip"."""
    return "uv" if any(Path(clone_venv).glob("lib/python*/site-packages/uv")) else "pip"


def no_change_seconds(out, runs=NO_CHANGE_RUNS):
    """(median, fastest) wall seconds of make grade's command on the demo cohort in ``out``, graded first if need be."""
    command = [sys.executable, "-m", "autograder.pipeline.grade", "--out", str(out), "--workers", "2"]
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times = [_timed(command, ROOT) for _ in range(runs)]
    return statistics.median(times), min(times)


def setup_block(figures, tool, day):
    """The "setup" block: what a fresh clone's first make grade cost, setup included."""
    total = figures["setup"] + figures["first_grade"]
    return (
        f"On a fresh clone ({COMMAND}, {day}): setting up `.venv` took {figures['setup']:.0f} s ({tool}), "
        f"the first `make grade` {figures['first_grade']:.0f} s more ({total:.0f} s in all), "
        f"and a second one, with nothing to do, {figures['no_change']:.1f} s."
    )


def write_pages(figures, tool, day):
    body = setup_block(figures, tool, day)
    for page in PAGES:
        marked.rewrite(page, "setup", body, COMMAND)
    return body


def main():
    with tempfile.TemporaryDirectory(prefix="graphkit-setup-") as folder:
        figures = setup_figures(folder)
        tool = installer(Path(folder) / "clone" / ".venv")
    print(write_pages(figures, tool, time.strftime("%Y-%m-%d")))


if __name__ == "__main__":
    main()
