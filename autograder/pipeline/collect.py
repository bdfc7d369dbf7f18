"""Collect an LMS download (`make collect ZIP=...`) into nbgrader's submitted/ layout, trusting only the LMS's names.

A Canvas "Download Submissions" zip holds one entry per file a learner uploaded, named
by the LMS (the pattern of notebooks/nbgrader_config.py):

    <login>_[LATE_]<user id>_<submission id>_<file name as uploaded>[-<n>].<extension>

where ``-<n>`` marks the n-th resubmission of a file of that name. ``collect`` writes

    DEST/<login>/<assignment_id>/<file name>.ipynb   (without the -<n>)
    DEST/<login>/<assignment_id>/timestamp.txt       (the entry's time in the download, as UTC)

replacing what an earlier download of the same assignment left there (the downloads of
other assignments stay, so one OUT can grade every lesson of a cohort), and the rest of the
batch reads DEST as any other submissions folder (autograder/pipeline/handins.py).
nbgrader's zip_collect is not used: it unpacks archives found inside the download and
believes the file names inside them, so a learner who uploads a zip holding a notebook
named as another learner's hand-in replaces that learner's submission, and a duplicate, a
collision or a broken archive stops it all. Here:

* who handed a file in comes only from the name of a top-level entry of the download,
  which the LMS wrote; a login that is not a safe student id is reported, never used
  as a folder name;
* learners are told apart by their LMS user id as well as the login part of the
  name, which two learners can share (Canvas writes a name, and two learners can
  have one): no two user ids are ever one learner. A login shared by several user
  ids gives each of them the student id ``<login>_<user id>`` (a login never holds
  ``_``, so no other learner has it), with a note naming them all. The student id
  given to each learner is kept beside DEST (``learners.json`` in DEST's parent, so
  DEST stays a submitted/ folder), and later downloads give the same learner the
  same id (autograder/pipeline/learner_ids.py); a newcomer whose login an earlier learner has gets an id of their own;
* an entry name that appears more than once in the download (which no LMS writes)
  is read once, the last of them, with a note naming the entry and what was kept;
* nothing inside the download is unpacked but notebooks: an uploaded archive (.zip,
  .gz, .tar ...) is never opened, and is reported as that learner's problem;
* when a learner uploaded a notebook of the same name more than once, the latest by
  the entry's time in the download is kept, then by the -<n> suffix; the others are
  listed. Only the lesson notebook is unpacked when there is one, else at most
  ``MAX_NOTEBOOKS_PER_LEARNER`` notebooks of other names, for handins.py to recognise
  a renamed lesson notebook;
* unpacking is capped (``MAX_ENTRY_BYTES`` a file, ``MAX_TOTAL_BYTES`` and
  ``MAX_FILES`` in all); sizes are checked before reading, reading stops at the cap,
  and the smallest files are unpacked first, so a bomb cannot push honest hand-ins
  out;
* every problem is a note naming the entry and the fix, and a learner left with
  nothing to grade gets a problem message instead (the release notebook stands in for
  them, scored 0 with that message); the batch goes on.
"""

import datetime
import json
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.files import write_atomic
from autograder.grading.submission import MAX_NOTEBOOK_BYTES
from autograder.nbgrader.course_folder import BatchError, remove
from autograder.pipeline import learner_ids, refusals
from autograder.pipeline.names import ID_RULE, is_safe_id, show, visible
from autograder.pipeline.timestamps import TIMESTAMP

MAX_ENTRY_BYTES = MAX_NOTEBOOK_BYTES  # 100 MB a file: a larger notebook is not graded anyway
MAX_TOTAL_BYTES = 1_000_000_000  # 1 GB unpacked from one download, in all
MAX_FILES = 5000  # files unpacked from one download, in all
MAX_NOTEBOOKS_PER_LEARNER = 3  # notebooks of other names looked at when a learner has no lesson notebook
MB = 1_000_000

CANVAS_NAME = re.compile(
    r"(?P<student_id>[^_/\\]+)_(?P<late>LATE_)?(?P<user_id>[0-9]+)_(?P<submission_id>[0-9]+)_(?P<file>[^/\\]+)"
)
RESUBMISSION = re.compile(r"(?P<stem>.*?)(?:-(?P<copy>[0-9]+))?(?P<extension>\.[A-Za-z0-9]+)?")
SAFE_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.()+-]{0,150}\.ipynb")
ARCHIVES = (".zip", ".gz", ".tgz", ".tar", ".bz2", ".xz", ".7z", ".rar", ".zst", ".lz", ".lzma", ".z")
NO_TIME = (1980, 1, 1, 0, 0, 0)  # what a zip entry says when it has no time
PROBLEMS = ".problems.json"  # in DEST: {assignment: {student id: problem}} of learners with nothing to unpack
LESSON_IDS = frozenset(lesson.assignment for lesson in LESSONS)


@dataclass
class Upload:
    """One top-level entry of the download, as the LMS named it."""

    info: zipfile.ZipInfo
    index: int  # its place in the download
    student: str  # the login part of the name, which several learners may share
    name: str  # the file name as uploaded, without the resubmission suffix
    copy: int  # the resubmission suffix, 0 when none
    user_id: str = ""  # the LMS user id, without leading zeros: one per learner
    submission_id: str = ""  # the LMS submission id, without leading zeros: one per learner and assignment

    @property
    def entry(self):
        return self.info.filename

    @property
    def order(self):
        """Later hand-ins sort last: by the entry's time, then the -<n> suffix, then the place in the download."""
        return (self.info.date_time, self.copy, self.index)


@dataclass
class Collected:
    """What ``collect`` made of a download."""

    folder: Path  # DEST, laid out as nbgrader's submitted/
    assignment: str
    notes: list = field(default_factory=list)  # one line per problem, naming the entry and the fix
    problems: dict = field(default_factory=dict)  # {(student, assignment): message} for learners with nothing to grade


def parse(info, index):
    """The Upload an entry is, or a reason it is none."""
    name = info.filename
    if "/" in name or "\\" in name:
        return "inside a folder of the download, not one of its own files"
    match = CANVAS_NAME.fullmatch(name)
    if not match:
        return "not named as the LMS names hand-ins (<login>_[LATE_]<user id>_<submission id>_<file>)"
    if not is_safe_id(match["student_id"]):
        return f"the login {show(match['student_id'])} is not a safe student id ({ID_RULE})"
    parts = RESUBMISSION.fullmatch(match["file"])
    return Upload(
        info,
        index,
        match["student_id"],
        parts["stem"] + (parts["extension"] or ""),
        int(parts["copy"] or 0),
        match["user_id"].lstrip("0") or "0",
        match["submission_id"].lstrip("0") or "0",
    )


def _once_each(infos, zip_name):
    """The entries of the download, each name once (the last entry of that name); and a note for every name twice."""
    last, count = {}, {}
    for info in infos:
        last[info.filename] = info
        count[info.filename] = count.get(info.filename, 0) + 1
    notes = []
    for name, times in count.items():
        if times > 1:
            kept = last[name]
            earlier = "the earlier one is" if times == 2 else f"the {times - 1} earlier ones are"
            notes.append(
                f"{zip_name}: {show(name)}: {times} entries of this name in the download; only the last "
                f"of them (dated {datetime.datetime(*kept.date_time):%Y-%m-%d %H:%M:%S}, {kept.file_size} "
                f"bytes) is read, {earlier} not; an LMS writes each name once, so "
                "download the submissions again"
            )
    return [info for info in infos if last[info.filename] is info], notes


def guess_assignment(uploads, zip_name):
    """The lesson whose notebook most learners of the download handed in."""
    votes = {
        lesson.assignment: len({(u.student, u.user_id) for u in uploads if u.name == lesson.notebook})
        for lesson in LESSONS
    }
    ranked = sorted(votes.items(), key=lambda item: -item[1])
    if not ranked[0][1] or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        counted = ", ".join(f"{a}: {n} learner(s)" for a, n in votes.items())
        raise BatchError(
            f"{zip_name}: cannot tell which lesson it holds ({counted}); name it with ASSIGNMENT=<assignment id>"
        )
    return ranked[0][0]


def _is_archive(name):
    return name.lower().endswith(ARCHIVES)


def _read(archive, info, limit):
    """The bytes of an entry, reading no more than ``limit`` of them; None when there are more."""
    data = bytearray()
    with archive.open(info) as stream:
        while True:
            block = stream.read(MB)
            if not block:
                return bytes(data)
            data += block
            if len(data) > limit:
                return None


def _timestamp(uploads):
    times = [u.info.date_time for u in uploads if u.info.date_time > NO_TIME]
    if not times:
        return None
    return datetime.datetime(*max(times)).strftime("%Y-%m-%d %H:%M:%S UTC")


def _clear(dest, assignment):
    """Remove what an earlier download of this assignment left in dest; other assignments' hand-ins stay."""
    dest.mkdir(parents=True, exist_ok=True)
    for folder in sorted(dest.iterdir()):
        remove(folder / assignment)
        if folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
            folder.rmdir()


class _Learner:
    """One learner's uploads, what is unpacked of them and what went wrong."""

    def __init__(self, student, assignment):
        self.student, self.assignment = student, assignment
        self.uploads = []
        self.chosen = []  # Uploads to unpack
        self.written = []  # Uploads unpacked
        self.reasons = []  # why, if nothing is unpacked for them
        self.notes = []  # every upload not graded, and why

    def note(self, upload, text):
        self.notes.append(f"{self.student}/{self.assignment}: {show(upload.entry)} in the download: {text}")


def _choose(learner, lesson):
    """Pick the notebooks to unpack for a learner; note every other upload."""
    groups = {}
    for upload in learner.uploads:
        if upload.name.lower().endswith(".ipynb"):
            groups.setdefault(upload.name, []).append(upload)
        elif _is_archive(upload.name):
            learner.reasons.append(f"{show(upload.entry)} is an archive, and archives are not unpacked")
            learner.note(upload, f"an archive; archives are not unpacked: hand in {lesson.notebook} itself")
        else:
            learner.reasons.append(f"{show(upload.entry)} is not a notebook")
            learner.note(upload, "not a notebook; not graded")
    latest = {}
    for name, group in sorted(groups.items()):
        group.sort(key=lambda u: u.order)
        latest[name] = group[-1]
        for older in group[:-1]:
            learner.note(
                older, f"an earlier hand-in of {show(name)}; the latest, {show(group[-1].entry)}, is the one graded"
            )
    if lesson.notebook in latest:
        learner.chosen = [latest.pop(lesson.notebook)]
        for upload in latest.values():
            learner.note(upload, f"{lesson.assignment} is handed in as {lesson.notebook}; this notebook was not graded")
        return
    for name, upload in sorted(latest.items()):
        if not SAFE_FILE.fullmatch(name):
            learner.reasons.append(f"{show(upload.entry)} has a file name the grader does not use")
            learner.note(upload, f"a notebook name the grader does not use; hand it in as {lesson.notebook}")
        elif len(learner.chosen) < MAX_NOTEBOOKS_PER_LEARNER:
            learner.chosen.append(upload)
        else:
            learner.note(
                upload,
                f"more notebooks than the {MAX_NOTEBOOKS_PER_LEARNER} looked at; "
                f"not unpacked: hand in {lesson.notebook} only",
            )


def collect(zip_file, dest, assignment=None):
    """Lay out the download ``zip_file`` in ``dest`` as nbgrader's submitted/ folder; return a Collected.

    Raises BatchError only when the download as a whole cannot be used (missing, not a zip,
    no entry named by the LMS, an unknown or undecidable assignment).
    """
    zip_file, dest = Path(zip_file), Path(dest)
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    refused = refusals.download(zip_file) or refusals.assignment_name(assignment)
    if refused:
        raise BatchError(refused)
    try:
        archive = zipfile.ZipFile(zip_file)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as err:
        raise BatchError(
            f"{zip_file.name}: not a zip file the grader can read ({err}); download the submissions again"
        ) from None
    with archive:
        notes, uploads = [], []
        entries, notes = _once_each([info for info in archive.infolist() if not info.is_dir()], zip_file.name)
        for index, info in enumerate(entries):
            parsed = parse(info, index)
            if isinstance(parsed, str):
                notes.append(f"{zip_file.name}: {show(info.filename)}: {parsed}; not read, and no learner was given it")
            else:
                uploads.append(parsed)
        if not uploads:
            raise BatchError(
                f"{zip_file.name}: holds no file named as the LMS names hand-ins; "
                "pass the zip of the LMS's Download Submissions"
            )
        assignment = assignment or guess_assignment(uploads, zip_file.name)
        lesson = lessons[assignment]
        known = learner_ids.known_learners(dest)
        given, said = learner_ids.student_ids(uploads, known, zip_file.name)
        notes += said
        learners = {}  # {student id: _Learner}: one per login and LMS user id
        for upload in uploads:
            student = given.get((upload.student, upload.user_id))
            if student:
                learners.setdefault(student, _Learner(student, assignment)).uploads.append(upload)
        for learner in learners.values():
            _choose(learner, lesson)

        _clear(dest, assignment)
        record = {f"{login}/{user_id}": student for (login, user_id), student in {**known, **given}.items()}
        write_atomic(dest.parent / learner_ids.LEARNERS, json.dumps(record, indent=1, sort_keys=True) + "\n")
        total, files = 0, 0
        queue = sorted(
            ((learner, upload) for learner in learners.values() for upload in learner.chosen),
            key=lambda pair: (pair[1].info.file_size, pair[1].student, pair[1].name),
        )
        for learner, upload in queue:
            size = upload.info.file_size
            refused = ""
            if size > MAX_ENTRY_BYTES:
                refused = f"it unpacks to {size / MB:.0f} MB, more than the cap of {MAX_ENTRY_BYTES / MB:g} MB a file"
            elif total + size > MAX_TOTAL_BYTES or files >= MAX_FILES:
                refused = (
                    f"the download unpacks to more than the cap of {MAX_TOTAL_BYTES / MB:g} MB "
                    f"or {MAX_FILES} files in all; grade it in parts"
                )
            else:
                try:
                    data = _read(archive, upload.info, min(size, MAX_ENTRY_BYTES))
                except (
                    zipfile.BadZipFile,
                    zlib.error,
                    OSError,
                    EOFError,
                    ValueError,
                    RuntimeError,
                    NotImplementedError,
                ) as err:
                    data, refused = (
                        None,
                        (
                            f"cannot be read from the download ({type(err).__name__}: {visible(str(err))}); "
                            "download it again"
                        ),
                    )
                else:
                    if data is None:
                        refused = f"unpacks to more than the {size} bytes the download says; a damaged or forged entry"
            if refused:
                learner.reasons.append(f"{show(upload.entry)} was not unpacked: {refused}")
                learner.note(upload, f"not unpacked: {refused}")
                continue
            total += len(data)
            files += 1
            write_atomic(dest / learner.student / assignment / upload.name, data)
            learner.written.append(upload)

        collected = Collected(dest, assignment, notes)
        problems = {}
        for student, learner in sorted(learners.items()):
            stamp = _timestamp(learner.written)
            if stamp:
                write_atomic(dest / student / assignment / TIMESTAMP, stamp + "\n")
            if learner.written:
                collected.notes += learner.notes
            else:  # the problem, shown with the stand-in, says it all
                reasons = "; ".join(learner.reasons) or "nothing"
                problems[student] = (
                    f"{lesson.notebook}: not handed in: in the LMS download, {reasons}; "
                    f"hand in the lesson notebook itself, as {lesson.notebook}"
                )
        collected.problems = _remember(dest, assignment, problems)
        learner_ids.keep_ids(dest, assignment, learners)
        return collected


def _remember(dest, assignment, problems):
    """Keep this download's problems in dest with those of the other assignments' downloads; return them all.

    A learner left with nothing to grade has no folder in dest, so their problem is kept
    here, for the stand-in that gives them a row whichever lesson is collected next.
    """
    record = dest / PROBLEMS
    try:
        known = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    known = {
        a: {s: m for s, m in by.items() if is_safe_id(s) and isinstance(m, str)}
        for a, by in (known.items() if isinstance(known, dict) else ())
        if a in LESSON_IDS and isinstance(by, dict)
    }
    known[assignment] = problems
    write_atomic(record, json.dumps(known, indent=1, sort_keys=True) + "\n")
    return {(s, a): m for a, by in known.items() for s, m in by.items()}
