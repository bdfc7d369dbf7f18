"""otter-grader's `otter run` on the course's exercise, for `make bench` to set beside the kit's CLI.

otter is not a dependency of the kit: the bench uses it when an `otter` command is found (on
PATH, or named by the OTTER environment variable), and otherwise says it is not installed.
The course gives the tests (OK-format doctests, its bench part's ``otter_tests()``); here they
become an otter autograder (`otter generate`), and one hand-in of the module is graded by
`otter run` in a fresh process each time, as Gradescope or a learner's CI would run it.
"""

import json
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

RUNS = 5  # `otter run`s; their median is reported
ENV = "OTTER"  # the otter command, when it is not on PATH
INSTALL = "pip install otter-grader in any environment and put its `otter` on PATH, or name it in OTTER="


class OtterError(Exception):
    """otter could not build or run the autograder; the message holds the end of what it printed."""


def executable(environ=None):
    """The otter command to run, or None when there is none."""
    environ = os.environ if environ is None else environ
    named = environ.get(ENV)
    if named:
        return named if Path(named).is_file() and os.access(named, os.X_OK) else None
    return shutil.which("otter")


def version(command):
    """otter's own version line ("Otter-Grader version: 7.0.0"), or "otter" when it does not say."""
    done = subprocess.run([command, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [line.strip() for line in done.stdout.splitlines() if line.startswith("Otter-Grader version")]
    return lines[0] if lines else "otter"


def _run(args, cwd):
    done = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-10:])
        raise OtterError(f"{' '.join(map(str, args[:2]))} failed ({done.returncode}):\n{tail}")
    return done.stdout


def write_tests(folder, tests):
    """Write each OK-format test as folder/<name>.py (``OK_FORMAT = True`` and ``test = {...}``)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, test in tests.items():
        (folder / f"{name}.py").write_text(f"OK_FORMAT = True\n\ntest = {test!r}\n", encoding="utf-8")


def autograder(work, command, tests):
    """`otter generate` on the tests: the autograder zip's path."""
    work = Path(work)
    write_tests(work / "tests", tests)
    _run(
        [
            command,
            "generate",
            "--tests-dir",
            "tests",
            "--output-path",
            "autograder.zip",
            "--no-config",
            "--no-requirements",
            "--no-environment",
        ],
        work,
    )
    found = work / "autograder.zip"
    if not found.is_file():
        raise OtterError("otter generate wrote no autograder.zip")
    return found


def run_seconds(work, command, tests, module_name, source, runs=RUNS):
    """Median wall seconds of `otter run` grading ``source`` (handed in as ``module_name``), each in a fresh process."""
    work = Path(work)
    zipped = autograder(work, command, tests)
    handin = work / "submission" / module_name
    handin.parent.mkdir(parents=True, exist_ok=True)
    handin.write_text(source, encoding="utf-8")
    times = []
    for i in range(runs):
        out = work / f"results-{i}"
        out.mkdir()
        started = time.perf_counter()
        _run([command, "run", "--autograder", str(zipped), "--output-dir", str(out), "--no-logo", str(handin)], work)
        times.append(time.perf_counter() - started)
        results = json.loads((out / "results.json").read_text(encoding="utf-8"))
        graded = [test for test in results.get("tests", []) if test.get("name") in tests]
        if len(graded) != len(tests) or any(test.get("score") != tests[test["name"]]["points"] for test in graded):
            raise OtterError(f"otter run did not grade the hand-in as the reference: {str(results)[:400]}")
    return statistics.median(times)
