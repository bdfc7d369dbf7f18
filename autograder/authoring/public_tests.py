"""`make check`: the course's public tests (exercises/tests/) on the learner's code, run from the course's folder.

    python -m autograder.authoring.public_tests               # every public test
    python -m autograder.authoring.public_tests --task NAME   # one task's (pytest marker task_NAME)

pytest runs in the course's folder, so the course's own conftest.py and pytest settings apply: for the graph
course that is the kit's checkout, for a course kept elsewhere its own folder (GRAPHKIT_COURSE).
"""

import argparse
import subprocess
import sys

from autograder.course.paths import EXERCISES_FOLDER, PUBLIC_TESTS, PUBLIC_TESTS_FOLDER, ROOT

EXIT_NO_TESTS = 2


def command(task=None):
    """The pytest command line of `make check`, run in the course's folder."""
    return [
        sys.executable,
        "-m",
        "pytest",
        f"{EXERCISES_FOLDER}/{PUBLIC_TESTS_FOLDER}",
        *(["-m", f"task_{task}"] if task else []),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m autograder.authoring.public_tests", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--task", help="run only this task's public tests")
    args = parser.parse_args(argv)
    if not PUBLIC_TESTS.is_dir():
        print(
            f"{PUBLIC_TESTS}: no such folder, so the course has no public tests to run; put the tests learners "
            f"run (test_*.py files) there",
            file=sys.stderr,
        )
        return EXIT_NO_TESTS
    return subprocess.run(command(args.task), cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
