"""Hand `make grade`'s feedback pages to nbgrader's exchange: `make hub-feedback COURSE=DIR [OUT=out]`.

On a hub, learners submit through nbgrader's exchange and the instructor's `nbgrader collect`
fills COURSE/submitted/<student>/<assignment>/, each hand-in with the timestamp.txt and
submission_secret.txt that nbgrader's submit wrote. `make grade SUBMISSIONS=COURSE/submitted`
grades them into OUT and writes OUT/feedback/<student>/<assignment>/<notebook>.html.

nbgrader's `release_feedback` then copies COURSE/feedback/<student>/<assignment>/<notebook>.html
into the exchange under a name worked out from the hand-in's secret, which only that learner's
`fetch_feedback` can work out again: each learner fetches their own page, and no other. This
module puts each of OUT's pages there, beside the secret and the timestamp of the collected
hand-in it grades:

* a page is placed only when the hand-in OUT graded is the one collected (the same timestamp):
  after a newer collect that `make grade` has not yet seen, that learner gets nothing, and the
  run says so;
* the secret and the timestamp are files a learner wrote: each is read once, capped, as a
  regular file and never through a symbolic link (autograder/pipeline/readonce.py); the secret
  must be hexadecimal, as nbgrader writes it, and the timestamp is written in nbgrader's own
  format (autograder/pipeline/timestamps.py);
* learner and lesson folder names are taken only when they are plain names (letters, digits,
  ``_ . -``, not starting with a dot).

Nothing else of COURSE changes, and a page whose content is already there is not rewritten.
"""

import argparse
import re
import sys
from pathlib import Path

from autograder.files import write_if_changed
from autograder.pipeline import readonce, timestamps

SECRET = "submission_secret.txt"
TIMESTAMP = "timestamp.txt"
MAX_SECRET_BYTES = 1_000  # nbgrader writes 128 hexadecimal digits
MAX_PAGE_BYTES = 50 * 1024 * 1024  # a feedback page the kit wrote; the cap only bounds a corrupted one
NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}")
HEX = re.compile(r"[0-9a-fA-F]{16,512}")


def place(out, course):
    """Place OUT's feedback pages in COURSE/feedback/ for nbgrader's release_feedback: (placed, notes).

    placed lists "student/assignment" for every hand-in whose pages are in place; notes say, one line
    each, why a graded hand-in got none.
    """
    out, course = Path(out).resolve(), Path(course).resolve()
    submitted = course / "submitted"
    placed, notes = [], []
    for graded in sorted((out / "feedback").glob("*/*")):
        student, assignment = graded.parent.name, graded.name
        where = f"{student}/{assignment}"
        if not (graded.is_dir() and NAME.fullmatch(student) and NAME.fullmatch(assignment)):
            notes.append(f"skipped {where!r}: not a learner's and a lesson's folder")
            continue
        pages = sorted(p for p in graded.glob("*.html") if p.is_file() and NAME.fullmatch(p.stem))
        try:
            secret = _secret(submitted, submitted / student / assignment / SECRET)
            collected = _timestamp(submitted, submitted / student / assignment / TIMESTAMP)
        except (readonce.Refused, timestamps.BadTimestamp) as err:
            notes.append(f"no feedback for {where}: its collected hand-in's {err.args[0]}")
            continue
        graded_at = _graded_timestamp(out, student, assignment)
        if graded_at != collected:
            notes.append(
                f"no feedback for {where}: the hand-in collected ({collected.strip()}) is not the one "
                f"graded ({(graded_at or 'none').strip()}); run make grade again, then this"
            )
            continue
        if not pages:
            notes.append(f"no feedback for {where}: make grade wrote no page for it")
            continue
        target = course / "feedback" / student / assignment
        for page in pages:
            write_if_changed(target / page.name, readonce.receive(out, page, MAX_PAGE_BYTES).data)
        write_if_changed(target / TIMESTAMP, collected)
        write_if_changed(target / SECRET, secret)
        placed.append(where)
    return placed, notes


def _secret(root, path):
    text = readonce.receive(root, path, MAX_SECRET_BYTES).data.decode("ascii", "replace").strip()
    if not HEX.fullmatch(text):
        raise readonce.Refused(
            f"{SECRET} is not the hexadecimal secret nbgrader writes; ask the learner to submit again"
        )
    return text


def _timestamp(root, path):
    try:
        data = readonce.receive(root, path, timestamps.MAX_BYTES).data
    except readonce.Refused as err:
        raise readonce.Refused(f"{TIMESTAMP}: {err}") from None
    try:
        return timestamps.canonical(data)
    except timestamps.BadTimestamp as err:
        raise timestamps.BadTimestamp(f"{TIMESTAMP}: {err}") from None


def _graded_timestamp(out, student, assignment):
    """The timestamp of the hand-in OUT graded, as make grade mirrored it (nbgrader's format), or None."""
    path = out / "submitted" / student / assignment / TIMESTAMP
    try:
        return timestamps.canonical(readonce.receive(out, path, timestamps.MAX_BYTES).data)
    except (readonce.Refused, timestamps.BadTimestamp):
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(description="Place make grade's feedback pages for nbgrader's release_feedback.")
    parser.add_argument("--out", default="out", help="the folder make grade wrote (default: out)")
    parser.add_argument(
        "--course", required=True, help="the nbgrader course folder whose submitted/ nbgrader's collect filled"
    )
    args = parser.parse_args(argv)
    if not (Path(args.out) / "feedback").is_dir():
        print(
            f"{args.out}/feedback/ does not exist: run make grade SUBMISSIONS={args.course}/submitted OUT={args.out} "
            "first",
            file=sys.stderr,
        )
        return 2
    placed, notes = place(args.out, args.course)
    for note in notes:
        print(note)
    print(
        f"feedback placed for {len(placed)} hand-in(s) in {args.course}/feedback/; "
        "now, in the course folder: nbgrader release_feedback ASSIGNMENT"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
