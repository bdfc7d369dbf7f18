"""Command line: grade one submission, or report what the sandbox can do here.

    python -m autograder grade PATH [--json] [--fail-under SCORE]
    python -m autograder doctor
"""

import argparse
import json
import sys

from autograder.grading.submission import SubmissionError
from autograder.sandbox import isolation

EXIT_GRADED, EXIT_BELOW, EXIT_CANNOT_GRADE = 0, 1, 2


def summary(graded, results, verbose=False):
    """A readable report: the total, each part's overview, then every failed test's message."""
    lines = [f"{graded.origin}: {graded.score:g}/{graded.max_score:g}"]
    for part in graded.parts:
        lines += ["  " + line for line in part.results["output"].splitlines()]
    lines += graded.notes
    parts = ["\n".join(lines)]
    tests = results["tests"]
    failed = [t for t in tests if t["status"] != "passed"]
    if failed:
        parts.append(f"{len(failed)} of {len(tests)} checks failed:")
        parts += [t["output"] for t in failed]
    else:
        parts.append(f"all {len(tests)} checks passed")
    if verbose:
        parts += [t["output"] for t in tests if t["status"] == "passed"]
    return "\n\n".join(parts)


def cmd_grade(args):
    from autograder.grading import by_lesson  # imported late: it loads Hypothesis and the checks

    try:
        graded = by_lesson.grade_path(args.path)
    except SubmissionError as err:
        print(f"cannot grade: {err}", file=sys.stderr)
        return EXIT_CANNOT_GRADE
    results = by_lesson.results_json(graded)
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
    else:
        print(summary(graded, results, verbose=args.verbose))
    if args.fail_under is not None and graded.score < args.fail_under:
        print(f"score {graded.score:g} is below --fail-under {args.fail_under:g}", file=sys.stderr)
        return EXIT_BELOW
    return EXIT_GRADED


def cmd_doctor(args):
    print("\n".join(isolation.report()))
    return EXIT_GRADED


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    grade = commands.add_parser("grade", help="grade one module, notebook or submission folder")
    grade.add_argument("path", help="a .py module, an .ipynb notebook, or a folder holding them; "
                       "a lesson notebook is graded on that lesson's grade cells, as `make grade` grades it")
    grade.add_argument("--json", action="store_true", help="print Gradescope results.json to stdout")
    grade.add_argument("--fail-under", type=float, metavar="SCORE", help="exit 1 if the score is below SCORE")
    grade.add_argument("--verbose", action="store_true", help="also list the checks that passed")
    grade.set_defaults(run=cmd_grade)
    doctor = commands.add_parser("doctor", help="report which sandbox protections this machine supports")
    doctor.set_defaults(run=cmd_doctor)
    args = parser.parse_args(argv)
    return args.run(args)
