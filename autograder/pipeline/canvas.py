"""Canvas in and out: the gradebook as a CSV that Canvas's gradebook import takes, and the demo cohort as Canvas
downloads.

    make export-canvas [OUT=out]    # OUT/canvas.csv, from OUT's gradebook and the Canvas ids of its downloads
    make demo-download [OUT=out]    # OUT/demo_download/<assignment>.zip: the demo cohort as Canvas's downloads

**The export.** Canvas's gradebook import reads a CSV whose first columns name the learner
(``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``; Canvas finds the learner
by the ``ID``, its user id) and then one column per assignment, headed ``Name (assignment id)``.
A column whose header carries no assignment id makes Canvas create a new assignment of that
name on import. Here:

* the learners are those of the collected downloads, with the Canvas user id each download
  carried (``lms_ids.json``, kept by autograder/pipeline/collect.py); ``Student`` is the login part of
  the download's names (Canvas shows the name it knows), and the SIS columns and ``Section`` are
  left empty, as Canvas allows when ``ID`` is given;
* one column per lesson collected, no other: its header is the assignment id, followed by the
  Canvas assignment id in parentheses when the course config gives one
  (``c.CanvasExport.assignment_ids = {"<assignment id>": 12345}``); without it Canvas makes a new
  assignment of that name, and the command says so;
* a cell is the gradebook's score after the late penalty (with any manual grade), for a learner
  whose submission that download held; it is empty for a learner the download did not hold, so the
  import leaves that score in Canvas as it is;
* every field is quoted, and a cell that could start a formula is shown as text
  (autograder/pipeline/cohort_report.csv_cell).

**The demo download.** One zip per lesson of the demo cohort (built as ``make grade`` builds
it), each entry named as Canvas names a hand-in, ``<login>_[LATE_]<user id>_<submission id>_<file>``,
and dated with the learner's upload time (their timestamp.txt), so
``make collect ZIP=OUT/demo_download/<assignment id>.zip OUT=...`` grades the demo cohort's
lesson 1 exactly as ``make grade`` does.
"""

import argparse
import datetime
import sys
import zipfile
from pathlib import Path

from traitlets import Dict, Integer
from traitlets.config import Configurable

from autograder.course import active
from autograder.course.lessons import LESSONS
from autograder.files import write_if_changed
from autograder.nbgrader.course_folder import BatchError, Course
from autograder.pipeline import timestamps
from autograder.pipeline.cohort_report import csv_text
from autograder.pipeline.learner_ids import lms_ids
from autograder.pipeline.timestamps import TIMESTAMP

COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")  # Canvas's own, before the assignments
EXPORT = "canvas.csv"  # in OUT
DOWNLOADS = "demo_download"  # in OUT: the demo cohort's Canvas downloads
FIRST_USER_ID = 1001  # the demo learners' Canvas user ids, in student id order
FIRST_SUBMISSION_ID = 50001


class CanvasExport(Configurable):
    """What the course config says about exporting grades to Canvas."""

    assignment_ids = Dict(
        value_trait=Integer(),
        default_value={},
        help="{assignment id: Canvas assignment id}: the Canvas assignment each lesson's column goes to on import "
        "(the number in the assignment's address in Canvas); a lesson without one becomes a new Canvas assignment",
    ).tag(config=True)


def assignment_ids(course):
    """The course config's c.CanvasExport.assignment_ids, checked; BatchError naming the config file otherwise."""
    try:
        ids = CanvasExport(config=course.config()).assignment_ids
    except Exception as err:  # noqa: BLE001 - traitlets says what is wrong with the value
        raise BatchError(
            f"{course.root / 'nbgrader_config.py'}: c.CanvasExport.assignment_ids: {err}; "
            f'write it as {{"{LESSONS[0].assignment}": 12345, ...}}'
        ) from None
    lessons = {lesson.assignment for lesson in LESSONS}
    unknown = sorted(set(ids) - lessons)
    if unknown:
        raise BatchError(
            f"{course.root / 'nbgrader_config.py'}: c.CanvasExport.assignment_ids names "
            f"{', '.join(unknown)}, which the course does not have; use {', '.join(sorted(lessons))}"
        )
    return {assignment: str(number) for assignment, number in ids.items()}


def rows(scores, ids, canvas_ids):
    """The CSV's rows: the header, then one row per learner with a Canvas user id.

    scores: the gradebook's {student: {assignment: (score after the late penalty, ...)}};
    ids: the kept Canvas ids, {assignment: {student: {"login", "user_id", "submission_id"}}}, of
    the lessons to export (their columns, in course order); canvas_ids: {assignment: Canvas assignment id}.
    """
    lessons = [lesson.assignment for lesson in LESSONS if lesson.assignment in ids]
    header = list(COLUMNS) + [f"{a} ({canvas_ids[a]})" if a in canvas_ids else a for a in lessons]
    learners = {}
    for assignment in lessons:
        for student, row in ids[assignment].items():
            learners.setdefault(student, row)
    body = []
    for student, row in sorted(learners.items(), key=lambda item: (int(item[1]["user_id"]), item[0])):
        cells = [row["login"], row["user_id"], "", "", ""]
        for assignment in lessons:
            held = student in ids[assignment] and assignment in scores.get(student, {})
            cells.append(f"{round(scores[student][assignment][0], 4):g}" if held else "")
        body.append(cells)
    return [header] + body


def export(out, stream=None):
    """Write OUT/canvas.csv; return (its path, the lines to print). BatchError when OUT holds no Canvas download."""
    stream = stream or sys.stderr
    course = Course(out, stream)
    if not course.has_gradebook():
        raise BatchError(
            f"{course.root}: no gradebook here; grade a Canvas download first: make collect ZIP=... OUT={out}"
        )
    ids = lms_ids(course.root / "collected")
    ids = {a: by for a, by in ids.items() if by}
    if not ids:
        raise BatchError(
            f"{course.root}: holds no Canvas download (no collected/lms_ids.json), so there are no "
            f"Canvas ids to export to; grade the downloads with make collect ZIP=... OUT={out} first"
        )
    canvas_ids = assignment_ids(course)
    _most, scores = course.gradebook_scores()
    table = rows(scores, ids, canvas_ids)
    path = course.root / EXPORT
    write_if_changed(path, csv_text(table))
    said = [
        f"wrote {path}: {len(table) - 1} learner(s), {len(ids)} lesson(s) ({', '.join(table[0][len(COLUMNS) :])}); "
        "import it in Canvas: Grades > Import"
    ]
    for assignment in (a for a in table[0][len(COLUMNS) :] if a in ids):
        said.append(
            f"{assignment} has no Canvas assignment id (c.CanvasExport.assignment_ids in the course config), "
            "so Canvas makes it a new assignment on import"
        )
    return path, said


# ---------------------------------------------------------------- the demo cohort's downloads


def canvas_name(login, user_id, submission_id, file_name, late):
    """An entry's name as Canvas writes it in a submissions download."""
    return f"{login}_{'LATE_' if late else ''}{user_id}_{submission_id}_{file_name}"


def _upload_time(stamp_file):
    """The datetime (UTC, naive) of a timestamp.txt the kit wrote, whole seconds."""
    text = timestamps.canonical(stamp_file.read_bytes()).strip()
    return datetime.datetime.strptime(text, timestamps.FORMAT).replace(microsecond=0)


def write_download(source, assignment, due, zip_path):
    """Write ``source``'s hand-ins of ``assignment`` (nbgrader's submitted/ layout) as a Canvas download at zip_path.

    Learners get Canvas user ids in student id order, the same in every lesson's download;
    each entry is dated with the learner's timestamp.txt (zip times are whole even seconds:
    the demo's are whole minutes) and marked LATE_ when that is after ``due``. Returns the entry names.
    """
    lesson = next(lesson for lesson in LESSONS if lesson.assignment == assignment)
    students = sorted(p.name for p in Path(source).iterdir() if p.is_dir())
    number = [lesson.assignment for lesson in LESSONS].index(assignment)
    names = []
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    partial = zip_path.with_name(f".{zip_path.name}.partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for index, student in enumerate(students):
            folder = Path(source) / student / assignment
            if not (folder / lesson.notebook).is_file():
                continue
            stamp = folder / TIMESTAMP
            when = _upload_time(stamp) if stamp.is_file() else datetime.datetime(1980, 1, 1)  # a zip's "no time"
            late = due is not None and stamp.is_file() and when > due.replace(tzinfo=None)
            name = canvas_name(
                student, FIRST_USER_ID + index, FIRST_SUBMISSION_ID + 1000 * number + index, lesson.notebook, late
            )
            info = zipfile.ZipInfo(name, date_time=when.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, (folder / lesson.notebook).read_bytes())
            names.append(name)
    partial.replace(zip_path)
    return names


def demo_downloads(out, stream=None):
    """The demo cohort, built as `make grade` builds it, as one Canvas download per lesson in OUT/demo_download/."""
    stream = stream or sys.stderr
    course = Course(out, stream)
    course.prepare()
    dues = course.due_dates()
    source = course.root / "demo_submissions"
    active.part("demo").build(source, course.root / "release", dues)
    written = []
    for lesson in LESSONS:
        path = course.root / DOWNLOADS / f"{lesson.assignment}.zip"
        if write_download(source, lesson.assignment, dues.get(lesson.assignment), path):
            written.append(path)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m autograder.pipeline.canvas",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "command",
        choices=("export", "demo"),
        help="export: OUT/canvas.csv for Canvas's gradebook import; demo: the demo cohort as Canvas downloads",
    )
    parser.add_argument("--out", default="out", help="the cohort's grading folder (default: out)")
    args = parser.parse_args(argv)
    try:
        if args.command == "export":
            _path, said = export(args.out)
            print("\n".join(said))
        else:
            for path in demo_downloads(args.out):
                print(f"wrote {path}: grade it with make collect ZIP={path} OUT=<another folder>")
    except BatchError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
