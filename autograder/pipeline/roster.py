"""Learners' names into a graded folder's gradebook, from a roster CSV, so that the formgrader shows them.

    make roster CSV=roster.csv [OUT=out]
    python -m autograder.pipeline.roster roster.csv [--out OUT]

The CSV's first row names its columns, as nbgrader's own ``nbgrader db student import``
reads them: ``id`` (the learner's folder under submitted/, the id that `make grade` and
`make collect` use; a column ``student_id`` is read as ``id``), and any of ``first_name``,
``last_name``, ``email`` and ``lms_user_id``. An empty cell leaves what the gradebook
holds. A learner of the roster who has not been graded yet is added, so the formgrader
and grades.csv list them too, with nothing handed in.

Names stay in OUT's gradebook (OUT/gradebook.db, or the database OUT's config names) across
later runs of `make grade` (nbgrader never overwrites them). The whole roster is checked
before anything is written: a bad row stops the import with a message naming the file, the
line and the fix.
"""

import argparse
import csv
import io
import sys
from pathlib import Path

from autograder.pipeline.names import ID_RULE, is_safe_id, show

FIELDS = ("first_name", "last_name", "email", "lms_user_id")  # nbgrader's Student columns besides id
ALIASES = {"student_id": "id"}
MAX_BYTES = 10 * 1024 * 1024  # a roster of a few thousand learners is well under this
EXIT_BAD_ROSTER = 2
MAX_CHARS = {"first_name": 100, "last_name": 100, "email": 254, "lms_user_id": 100}  # a name's length, a field's
MARKUP = set('<>&"`\\{}')  # characters that could start markup, a template or an escape on a page; no name needs one


class RosterError(Exception):
    """The roster cannot be read; the message names the file and the fix."""


def read(path):
    """{learner id: {field: value}} from the roster at ``path``, every row checked."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise RosterError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB; a roster is one row per learner")
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as err:
        raise RosterError(
            f"{path}: cannot be read ({err.strerror or err}); pass the roster's path: make roster CSV=..."
        ) from None
    except UnicodeDecodeError:
        raise RosterError(f'{path}: is not UTF-8 text; save it as "CSV UTF-8" and import it again') from None
    rows = csv.reader(io.StringIO(text, newline=""))
    header = next(rows, None)
    if not header:
        raise RosterError(f"{path}: is empty; its first row names the columns: id,first_name,last_name,email")
    columns = [ALIASES.get(name.strip().lower(), name.strip().lower()) for name in header]
    unknown = [name for name in columns if name not in ("id", *FIELDS)]
    if unknown or "id" not in columns or len(set(columns)) != len(columns):
        raise RosterError(
            f"{path}: its first row names the columns {', '.join(map(repr, header))}; a roster has a "
            f"column id and may have {', '.join(FIELDS)}, each once (nbgrader's db student import format)"
        )
    roster, lines = {}, {}
    for line, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line, as spreadsheets leave at the end
        if len(row) > len(columns):
            raise RosterError(
                f"{path}, line {line}: {len(row)} cells under {len(columns)} columns; quote a name that holds a comma"
            )
        cells = dict(zip(columns, (cell.strip() for cell in row)))
        learner = cells.pop("id", "")
        if not learner:
            raise RosterError(f"{path}, line {line}: no id; give every learner the id of their folder under submitted/")
        if not is_safe_id(learner):
            raise RosterError(
                f"{path}, line {line}: {show(learner)} is not a student id ({ID_RULE}); "
                "use the id of the learner's folder, as make grade shows it"
            )
        if learner in roster:
            raise RosterError(
                f"{path}, line {line}: {learner!r} again (first on line {lines[learner]}); keep one row per learner"
            )
        for field, value in cells.items():
            problem = refused(field, value)
            if problem:
                raise RosterError(
                    f"{path}, line {line}: the {field} {show(value[:120])} {problem}; correct that cell "
                    "and import the roster again"
                )
        roster[learner] = {field: value for field, value in cells.items() if value}
        lines[learner] = line
    return roster


def refused(field, value):
    """Why ``value`` cannot be the ``field`` of a learner (for a sentence), or "" when it can.

    Names reach nbgrader's pages, the terminal and CSV files: each is printable text of bounded length,
    with no character that starts markup, and does not start as a spreadsheet formula does.
    """
    if len(value) > MAX_CHARS[field]:
        return f"is longer than {MAX_CHARS[field]} characters"
    if not value.isprintable():
        return "holds a character that is not printable (a control or formatting character, a line break)"
    if MARKUP & set(value):
        return f"holds one of {' '.join(sorted(MARKUP))}, which a name never needs"
    if value[:1] in ("=", "+", "-", "@"):
        return "starts with =, +, - or @, as a spreadsheet formula does"
    return ""


def apply(out, roster):
    """Write ``roster``'s names into OUT's gradebook; return the ids that the gradebook did not hold yet."""
    from autograder.nbgrader import env
    from autograder.nbgrader.course_folder import Course

    course = Course(out)
    with env.alembic_on_path(), course.gradebook() as gradebook:
        known = {student.id for student in gradebook.students}
        for learner, fields in roster.items():
            gradebook.update_or_create_student(learner, **fields)
    return sorted(set(roster) - known)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m autograder.pipeline.roster", description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="the roster: a CSV with a column id and any of " + ", ".join(FIELDS))
    parser.add_argument("--out", default="out", help="the graded cohort's folder (default: out)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    from autograder.nbgrader.course_folder import Course

    if not Course(out).has_gradebook():
        print(
            f"roster: {out} holds no graded course (its nbgrader_config.py and gradebook): "
            f"grade first with `make grade` (`make grade OUT={args.out}`), "
            f"then import the roster; the names stay through later runs",
            file=sys.stderr,
        )
        return EXIT_BAD_ROSTER
    try:
        roster = read(args.csv)
    except RosterError as err:
        print(f"roster: {err}", file=sys.stderr)
        return EXIT_BAD_ROSTER
    added = apply(out, roster)
    print(
        f"roster: {len(roster)} learner(s) named in {out}'s gradebook"
        + (f"; not graded yet, added with nothing handed in: {', '.join(added)}" if added else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
