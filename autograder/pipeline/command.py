"""The batch's command line, and what a run prints at its end: shared by make grade's front (grade.py) and the batch
(batch.py), so the front imports the batch and never the other way."""

from autograder.pipeline import unchanged

NOTHING = "nothing changed since the last run, nothing was graded again"
DONE = "gradebook, grades.csv, checks.csv, feedback/, results/ and cohort_report.html are in"


def parser(description, prog):
    """The batch's arguments."""
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
