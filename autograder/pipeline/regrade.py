"""Regrade with a diff: which hand-ins a change affects, what their grades become, and why.

    make regrade [SUBMISSIONS=DIR] [OUT=out]      # grade again what changed; print the grades that moved
    make regrade DRY=1 [OUT=out]                  # the same table, nothing written
    python -m autograder.pipeline.regrade --out OUT [--submissions DIR] [--dry-run] [--workers N]

Each hand-in's last decision in OUT/history.jsonl carries the provenance of its grade
(autograder/grading/provenance.py). A hand-in is affected when what would grade it now differs
from that: its file (a new hand-in), the course's checks, the kit's grading code or version,
Python or a package, the isolation mode. The batch grades again exactly those, since each of
them is part of a record's cache key; the others keep their records.

The table lists the learners whose score moves: old -> new, the tests whose points moved, and why
(the parts of the provenance that differ). A dry run grades the affected hand-ins of OUT/submitted
in memory, writes nothing, and shows the table it would give (its new score is the gradebook's
old one moved by what the hidden checks now give). A regrade that changes nothing says so and
appends nothing to the history.
"""

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from autograder.grading import cellgrades, provenance
from autograder.pipeline import history
from autograder.pipeline.reproduce import moved_tests

MOST_TESTS = 4  # tests named in a row of the table; the rest are counted


def _names(tests):
    return tests[:MOST_TESTS] + ([f"and {len(tests) - MOST_TESTS} more"] if len(tests) > MOST_TESTS else [])


def why(before, after):
    """Why a grade moved, in words: the parts of the provenance that differ, or what else can move it."""
    said = provenance.reasons(before.get("provenance"), after.get("provenance"))
    if said:
        return "; ".join(said)
    if before.get("autograded_score") == after.get("autograded_score") and before.get("tests") == after.get("tests"):
        return "grades set by hand or the late penalty changed"
    return "nothing in the provenance changed: the earlier grade did not reproduce"


def moves(before, after):
    """[(student, lesson, old score, new score, tests that moved, why)] of the decisions whose grade moved."""
    rows = []
    for key in sorted(after):
        old, new = before.get(key), after[key]
        if old is None:
            continue
        tests = moved_tests(old.get("tests") or {}, new.get("tests") or {})
        if old.get("score") != new.get("score") or tests:
            rows.append((*key, old.get("score", 0), new.get("score", 0), tests, why(old, new)))
    return rows


def table(rows):
    """The moves as a text table."""
    head = ("learner", "lesson", "old -> new", "checks that moved", "why")
    body = [
        (s, a, f"{old:g} -> {new:g}", "; ".join(_names(tests)) or "-", reason) for s, a, old, new, tests, reason in rows
    ]
    widths = [max(len(str(row[i])) for row in (head, *body)) for i in range(len(head) - 1)]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(row, widths)) + "  " + row[-1] for row in (head, *body))


# ---------------------------------------------------------------- what a change affects


def affected(course, last):
    """{(student, assignment): (relative path, reasons)} of the hand-ins in OUT/submitted whose grade is out of date."""
    made = provenance.of_grading()
    found = {}
    for (student, assignment), relatives in sorted(course.submissions().items()):
        relative = relatives[0]
        now = provenance.of_handin(course.root / "submitted" / relative, made)
        before = last.get((student, assignment))
        reasons = provenance.reasons(before.get("provenance"), now) if before else ["not graded before"]
        if reasons:
            found[(student, assignment)] = (relative, reasons)
    return found


def dry_run(course, last, workers):
    """(affected, new decisions) of grading the affected hand-ins in memory: nothing in OUT is written."""
    from autograder.nbgrader import hidden_checks
    from autograder.nbgrader.course_folder import BatchError
    from autograder.pipeline.pool import die_with, streamed
    from autograder.pipeline.pregrading import checks_graded, grade_job

    found = affected(course, last)
    cells = course.grade_cells()
    problems = course.problems()
    settings = hidden_checks.course_settings(course.config())
    jobs, records = [], {}
    for (_student, assignment), (relative, _reasons) in found.items():
        points, tests = cells[assignment]
        if relative in problems:
            records[relative] = cellgrades.problem_record(problems[relative], points, relative.rsplit("/", 1)[1])
        else:
            jobs.append((relative, str(course.root), relative, settings, points, tests))
    if jobs:
        from autograder.grading.runner import warm

        warm(checks_graded(cells, {assignment for _student, assignment in found}))
        with ProcessPoolExecutor(max_workers=max(1, workers), initializer=die_with, initargs=(os.getpid(),)) as pool:
            for relative, record, _seconds, error in streamed(pool, grade_job, jobs, 2 * max(1, workers)):
                if record is None:
                    raise BatchError(f"{relative}: grading failed ({error})")
                records[relative] = record
    decisions = {}
    for key, (relative, _reasons) in found.items():
        results = records[relative]["results"]
        old = last.get(key) or {}
        auto = results.get("score", 0.0)
        score = round(old.get("score", 0.0) + auto - old.get("autograded_score", 0.0), 4) if old else auto
        decisions[key] = {
            "score": score,
            "autograded_score": auto,
            "tests": {t["name"]: t["score"] for t in results.get("tests", [])},
            "provenance": provenance.of_handin(course.root / "submitted" / relative),
        }
    return found, decisions


# ---------------------------------------------------------------- the command


def summary(found):
    counts = {}
    for _relative, reasons in found.values():
        for reason in reasons:
            counts[reason] = counts.get(reason, 0) + 1
    return "; ".join(f"{n} by {reason}" for reason, n in sorted(counts.items(), key=lambda item: -item[1]))


def run(out, submissions=None, dry=False, workers=None, stream=None):
    """Regrade OUT (or show what a regrade would do); return the text to print."""
    from autograder.nbgrader.course_folder import Course
    from autograder.pipeline import batch
    from autograder.pipeline.pool import WORKERS

    stream = stream or sys.stderr
    workers = workers or WORKERS
    lines = history.read(out)
    last = history.latest(lines)
    if dry:
        if not (Path(out) / "submitted").is_dir():
            raise batch.BatchError(f"{out} holds no graded cohort: make grade OUT={out} first")
        found, decisions = dry_run(Course(out, stream), last, workers)
        if not found:
            return "dry run: no hand-in is affected: every grade's provenance matches this kit; nothing was written"
        rows = moves(last, decisions)
        said = [f"dry run, nothing written: {len(found)} hand-in(s) would be graded again ({summary(found)})"]
        said.append(table(rows) if rows else "no score would move")
        return "\n".join(said)
    batch.run(out, submissions=submissions, workers=workers, stream=stream)
    new = history.read(out)[len(lines) :]
    if not new:
        return "the regrade changed nothing: every grade stands as recorded, and nothing new was written"
    after = history.latest(new)
    rows = moves(last, after)
    fresh = [key for key in after if key not in last]
    said = [
        f"regraded: {len(after)} hand-in(s) have a new decision in {history.path_of(out)}"
        + (f" ({len(fresh)} graded for the first time)" if fresh else "")
    ]
    said.append(table(rows) if rows else "no score moved")
    return "\n".join(said)


def main(argv=None):
    from autograder.nbgrader.course_folder import BatchError

    parser = argparse.ArgumentParser(
        prog="python -m autograder.pipeline.regrade",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", default="out", help="the cohort's grading folder (default: out)")
    parser.add_argument(
        "--submissions",
        metavar="DIR",
        help="a folder laid out as nbgrader's submitted/ (default: the demo cohort, as make grade)",
    )
    parser.add_argument("--dry-run", action="store_true", help="show the table without writing anything")
    parser.add_argument("--workers", type=int, help="worker processes (default: every core)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        text = run(args.out, args.submissions, args.dry_run, args.workers)
    except BatchError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(text)
    print(f"({time.monotonic() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
