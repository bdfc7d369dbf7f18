"""``make grade`` and ``make collect``: the answers that cost nothing first, then the batch.

    python -m autograder.pipeline.grade [--out OUT] [--submissions DIR | --zip FILE [--assignment ID]] [--workers N]

takes the arguments of autograder/pipeline/batch.py and, before importing nbgrader or starting
any pool:

1. refuses an input that is not there (autograder/pipeline/refusals.py), with the batch's message;
2. prints what the last complete run printed when nothing changed since (autograder/pipeline/unchanged.py).

Otherwise it runs the batch, which grades what changed and keeps, once it is complete, what the
next run compares.
"""

import sys
import time
from pathlib import Path

from autograder.pipeline import refusals, unchanged

NOTHING = "nothing changed since the last run, nothing was graded again"
DONE = "gradebook, grades.csv, checks.csv, feedback/, results/ and cohort_report.html are in"


def parser(description=__doc__, prog="python -m autograder.pipeline.grade"):
    """The batch's command line, shared by this front and autograder/pipeline/batch.py."""
    import argparse
    import os

    workers = os.cpu_count() or 2
    made = argparse.ArgumentParser(
        prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    made.add_argument("--out", default="out", help="the cohort's grading folder (default: out)")
    source = made.add_mutually_exclusive_group()
    source.add_argument("--submissions", metavar="DIR", help="a folder laid out as nbgrader's submitted/")
    source.add_argument("--zip", metavar="FILE", help="an LMS download (a Canvas submissions zip)")
    made.add_argument("--assignment", help="with --zip: the assignment the download belongs to")
    made.add_argument(
        "--db-url",
        metavar="URL",
        help="the gradebook, for several graders at once: postgresql://USER@HOST/DATABASE (no password "
        "in it: ~/.pgpass or PGPASSWORD); OUT remembers it (default: OUT's, else OUT/gradebook.db)",
    )
    made.add_argument(
        "--workers",
        type=int,
        default=workers,
        help=f"worker processes for the hidden checks and the feedback (default: every core, {workers})",
    )
    return made


def inputs_digest(args):
    """unchanged.inputs of these arguments; None when the gradebook is a database's, which no file of OUT follows."""
    if unchanged.uses_a_database(args.out, args.db_url):
        return None
    return unchanged.inputs(args.zip or args.submissions, args.assignment if args.zip else None, args.db_url)


def nothing_changed(out, printed):
    """What the batch prints when it finds nothing to do: the last complete run's table and notes, and that."""
    for line in printed:
        print(line)
    print(f"\n{NOTHING}; {DONE} {Path(out)}/")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    refusal = refusals.of_batch(args.out, args.submissions, args.zip, args.assignment)
    if refusal:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    digest = inputs_digest(args)
    printed = unchanged.answer(args.out, digest) if digest else None
    if printed is not None:
        nothing_changed(args.out, printed)
        return 0
    from autograder.pipeline import batch  # nbgrader, and the pools, only when there is something to do

    return batch.main(argv, started=time.monotonic())


if __name__ == "__main__":
    sys.exit(main())
