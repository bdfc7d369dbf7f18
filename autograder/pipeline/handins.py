"""Bring the hand-ins into OUT/submitted: mirrored from the input, safe for nbgrader to process and to show.

The input is a folder laid out as nbgrader's submitted/ folder,
``<student_id>/<assignment_id>/<notebook>.ipynb`` (plus timestamp.txt). OUT/submitted
mirrors the lesson notebooks and timestamps of it: new and changed files are copied,
files gone from the input are removed. Nothing in the input is trusted:

* a folder is a learner only if its name is a safe student id (``SAFE_ID``: a letter or
  digit, then letters, digits, ``_``, ``.`` or ``-``, 64 at most). nbgrader reads ids as
  glob patterns and paths, so a name with ``*``, ``?``, a newline or a comma could grade
  or overwrite other learners; such a folder gets a note naming it and the fix, and the
  batch goes on without it;
* symbolic links are never followed, and only the lesson notebook and timestamp.txt of
  each assignment folder are mirrored; other files are left where they are;
* each of those files is opened once and read whole from that one descriptor
  (autograder/pipeline/readonce.py): no symbolic link on its path, a regular file of
  one name (no hard link), capped in size, its bytes hashed (cache/state.json's
  ``received``). Everything after works on those bytes and on OUT/submitted, the
  kit's own copy: the learner's path is never opened again, so a file swapped while
  the batch runs (for a link to the instructor's source notebook, say) is either
  the learner's own, read before the swap, or refused as that learner's problem;
* timestamp.txt is parsed (autograder/pipeline/timestamps.py) and mirrored in
  nbgrader's own format; one that is no time, or too large, is a problem of that
  hand-in (the release notebook stands in for it, scored 0 with the message);
* names are shown escaped (``show``) when they hold a quote, a backslash, or any
  character that is not printable: control, bidi (a right-to-left override),
  zero-width or separator characters never reach a terminal or a page raw;
* every learner folder gives a hand-in for each lesson whose folder it has. When that
  folder holds no lesson notebook, a single notebook of another name that holds the
  lesson's grade cells (a renamed copy) is graded in its place, with a note; otherwise
  the release notebook stands in for it with a problem naming what was found and the
  fix, so the learner scores 0 with the reason instead of vanishing from the grades. A
  learner folder with no lesson folder at all gets such a stand-in for every lesson;
* each lesson notebook's nbgrader metadata is restored from the release notebook by
  grade id (autograder.course.metadata.restore_metadata), so copied cells or edited
  points, flags and schema versions can neither crash nbgrader nor change a score;
* its markdown, raw cells and outputs are made inert
  (autograder.nbgrader.sanitize), so nbgrader's formgrader, which shows these
  notebooks, runs nothing a learner wrote; the answers its widgets saved are checked
  (exercises/widget_answers.py) and kept in the notebook's metadata in their place;
* a notebook that cannot be read (not JSON, not UTF-8, too large, no code cells, or
  nothing nbformat can open) is replaced by the release notebook, and its problem is
  recorded in cache/problems.json: every grade cell then scores 0 and shows a message
  naming the problem and the fix. Stand-ins for missing notebooks are recorded the same way.

Files are compared by hash with what was mirrored last time (cache/state.json), so an
unchanged input writes nothing and only the hand-ins that changed are graded again.
"""

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.course.metadata import restore_metadata
from autograder.files import sha, write_if_changed
from autograder.grading.json_cost import too_costly
from autograder.grading.submission import MAX_NOTEBOOK_BYTES, SubmissionError, from_notebook
from autograder.nbgrader.capped_outputs import capped_notebook_text
from autograder.nbgrader.course_folder import BatchError, remove
from autograder.pipeline import refusals
from autograder.nbgrader.sanitize.notebook import sanitize_notebook
from autograder.pipeline import readonce, timestamps
from autograder.course.saved_answers import KEPT, saved_answers

SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
ID_RULE = "a letter or digit, then up to 63 letters, digits, '_', '.' or '-'"
TIMESTAMP = "timestamp.txt"
IGNORED = (".ipynb_checkpoints",)
MAX_RENAMED = 10  # notebooks of other names read to find a renamed lesson notebook, in name order
SHOWN_NAMES = 5  # names a message or a folder's notes list, before they count the rest
# Part of every mirrored notebook's hash: raised whenever prepared() changes what it writes,
# so notebooks mirrored by an older kit are prepared (and graded) again.
PREPARATION = "sanitized-3"  # 3: the widgets' answers kept
RECEIVED = "received"  # OUT/cache/received/: the kit's copy of one notebook's bytes while it is checked
TOO_LARGE = "clear the notebook's outputs and hand it in again"


def is_safe_id(name):
    return bool(SAFE_ID.fullmatch(name))


def show(name):
    """A file or folder name as a message shows it: quoted, with escapes, when it holds odd characters.

    Odd is a quote, a backslash or anything str.isprintable() refuses: control characters
    (C0, C1, escape sequences), bidi controls such as a right-to-left override, zero-width
    and separator characters. repr() writes each of those as a visible \\x, \\u escape.
    """
    return name if name.isprintable() and not any(c in name for c in "\"'\\") else repr(name)


def visible(text):
    """A message that may quote a name (an exception's, say), with every character str.isprintable() refuses escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def listed(names, total=None):
    """Names joined by commas: at most SHOWN_NAMES of them, then how many more of ``total`` (a folder may hold 80,000 files)."""
    shown = names[:SHOWN_NAMES]
    more = (len(names) if total is None else total) - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more > 0 else "")


class Skipped:
    """The notes about what a folder holds that is skipped: SHOWN_NAMES of them, then one that counts the rest."""

    def __init__(self, notes, folder):
        self.notes, self.folder, self.count = notes, folder, 0

    def add(self, note):
        self.count += 1
        if self.count <= SHOWN_NAMES:
            self.notes.append(note)

    def close(self):
        if self.count > SHOWN_NAMES:
            self.notes.append(f"{self.folder}: {self.count - SHOWN_NAMES:,} more entries skipped as the ones above; "
                              "hand in only the lesson notebooks, each as <student_id>/<assignment_id>/<notebook>")


def where(source, path):
    """A learner's file as messages name it: its path below the submissions folder, each part shown."""
    return "/".join(show(part) for part in Path(path).relative_to(source).parts)


@dataclass
class Scan:
    """What an input folder holds, as OUT/submitted will mirror it."""

    files: dict = field(default_factory=dict)  # {"student/assignment/name": input path}: lesson notebooks, timestamps
    standins: dict = field(default_factory=dict)  # {"student/assignment/notebook": problem}: the release stands in
    notes: list = field(default_factory=list)  # what was skipped or read another way, and why
    source: Path = Path(".")  # the submissions folder scanned: every file is read below it (readonce.receive)
    checked: dict = field(default_factory=dict)  # {"student/assignment/notebook": sha256} of a renamed notebook as read


def grade_ids(path):
    """The grade ids a notebook file of the kit's own (a release notebook) carries."""
    try:
        return grade_ids_in(Path(path).read_bytes())
    except OSError:
        return set()


def _learner_grade_ids(source, path):
    """(grade ids, sha256) of a learner's notebook, read once (readonce.receive); an empty set when it cannot be."""
    try:
        got = readonce.receive(source, path, MAX_NOTEBOOK_BYTES)
    except (readonce.Refused, OSError):
        return set(), ""
    return grade_ids_in(got.data), got.sha256


def grade_ids_in(data):
    """The grade ids the bytes of a notebook file carry, or an empty set when they are no notebook (or cost too much to read)."""
    if too_costly(data):
        return set()
    try:
        cells = json.loads(data.decode("utf-8-sig")).get("cells")
        found = set()
        for cell in cells if isinstance(cells, list) else []:
            meta = cell.get("metadata") if isinstance(cell, dict) else None
            nbgrader = meta.get("nbgrader") if isinstance(meta, dict) else None
            grade_id = nbgrader.get("grade_id") if isinstance(nbgrader, dict) else None
            if isinstance(grade_id, str):
                found.add(grade_id)
        return found
    except (OSError, ValueError, AttributeError, RecursionError):
        return set()


def _entries(folder, hidden=False):
    """The entries of a folder, sorted by name (without following symbolic links); hidden ones only if asked."""
    try:
        with os.scandir(folder) as listing:
            return sorted((e for e in listing if hidden or not e.name.startswith(".")), key=lambda e: e.name)
    except OSError:
        return []


def _lesson_folder(scan, student, lesson, folder, lesson_ids):
    """Scan ``student/<assignment>/``: its notebook and timestamp into scan.files; return the problem, or ''."""
    prefix = f"{student}/{lesson.assignment}"
    target = f"{prefix}/{lesson.notebook}"
    notebook, others, links, rest = None, [], [], []
    for entry in _entries(folder):
        if entry.is_symlink():
            links.append(entry.name)
        elif entry.name == lesson.notebook and entry.is_file():
            notebook = Path(entry.path)
        elif entry.name == TIMESTAMP and entry.is_file():
            scan.files[f"{prefix}/{TIMESTAMP}"] = Path(entry.path)
        elif entry.name.endswith(".ipynb") and entry.is_file():
            others.append(entry.name)
        else:
            rest.append(entry.name + ("/" if entry.is_dir() else ""))
    if notebook is None:
        read = {name: _learner_grade_ids(scan.source, folder / name) for name in others[:MAX_RENAMED]}
        carrying = [name for name, (ids, _sha) in read.items() if ids & lesson_ids]
        if len(carrying) == 1:
            notebook = folder / carrying[0]
            others.remove(carrying[0])
            scan.checked[target] = read[carrying[0]][1]  # what is graded must be what was recognised
            scan.notes.append(
                f"{prefix}/{show(carrying[0])}: graded as {lesson.notebook}, the lesson notebook it is "
                f"(it holds the lesson's grade cells); next time hand it in as {lesson.notebook}"
            )
    if notebook is not None:
        scan.files[target] = notebook
        skipped = Skipped(scan.notes, f"{prefix}/")
        for name in links:
            skipped.add(f"{prefix}/{show(name)}: a symbolic link, not a file; skipped: hand in the file itself")
        for name in others:
            skipped.add(f"{prefix}/{show(name)}: {lesson.assignment} is handed in as {lesson.notebook}; "
                        "this notebook was not graded")
        skipped.close()
        return ""
    if len(carrying) > 1:
        return (f"{lesson.notebook}: not handed in: {prefix}/ holds several notebooks with the lesson's grade cells "
                f"({listed(list(map(show, carrying)))}) and none named {lesson.notebook}; "
                f"keep the one to grade, name it {lesson.notebook} and hand it in again")
    found = [f"{show(n)} (not this lesson's notebook: it holds none of its grade cells)" for n in others[:SHOWN_NAMES]]
    found += [f"{show(n)} (a symbolic link)" for n in links[:SHOWN_NAMES]] + [show(n) for n in rest[:SHOWN_NAMES]]
    holds = f"holds {listed(found, len(others) + len(links) + len(rest))}" if found else "is empty"
    return f"{lesson.notebook}: not handed in: {prefix}/ {holds}; hand in the lesson notebook as {lesson.notebook}"


def held(source, problems=None):
    """The assignments an input holds: those some learner's folder has a folder for, or a known problem names.

    A cohort is graded on these lessons only: a lesson nobody handed in (not collected yet,
    or not yet due) gets no rows. An input that holds no lesson at all is held to every lesson.
    """
    lessons = {lesson.assignment for lesson in LESSONS}
    found = {assignment for _student, assignment in (problems or {}) if assignment in lessons}
    for learner in _entries(source):
        if learner.is_dir(follow_symlinks=False) and is_safe_id(learner.name):
            found |= {e.name for e in _entries(learner.path) if e.name in lessons and e.is_dir(follow_symlinks=False)}
    return found or lessons


def _learner(scan, student, folder, lesson_ids, problems, inputs_lessons=None):
    """Scan one learner's folder; every lesson whose folder it has gets a notebook or a stand-in.

    A learner folder with no lesson folder at all gets a stand-in for every lesson of ``inputs_lessons``
    (the lessons the input holds; default every lesson)."""
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    seen, stray = set(), []
    skipped = Skipped(scan.notes, f"{student}/")
    for entry in _entries(folder):
        where = f"{student}/{show(entry.name)}"
        if entry.name in lessons and (entry.is_dir(follow_symlinks=False) or entry.is_symlink()):
            lesson = lessons[entry.name]
            seen.add(lesson.assignment)
            if entry.is_symlink():
                problem = (f"{lesson.notebook}: not handed in: {where} is a symbolic link, not a folder; "
                           f"hand in the lesson notebook itself as {where}/{lesson.notebook}")
            else:
                problem = _lesson_folder(scan, student, lesson, folder / entry.name, lesson_ids[lesson.assignment])
            if problem:
                scan.standins[f"{student}/{lesson.assignment}/{lesson.notebook}"] = (
                    problems.get((student, lesson.assignment)) or problem)
        elif entry.is_symlink():
            stray.append(entry.name)
            skipped.add(f"{where}: a symbolic link, not a folder; skipped: hand in the files themselves")
        elif entry.is_dir():
            stray.append(entry.name + "/")
            skipped.add(f"{where}: the course has no assignment {entry.name!r}; skipped")
        else:
            stray.append(entry.name)
            home = [f"{student}/{l.assignment}/" for l in LESSONS if l.notebook == entry.name]
            fix = f": move it to {home[0]}" if home else ""
            skipped.add(f"{where}: not inside <student_id>/<assignment_id>/; skipped{fix}")
    skipped.close()
    for lesson in LESSONS:
        relative = f"{student}/{lesson.assignment}/{lesson.notebook}"
        if lesson.assignment in seen:
            continue
        if (student, lesson.assignment) in problems:
            scan.standins[relative] = problems[(student, lesson.assignment)]
        elif not seen and (inputs_lessons is None or lesson.assignment in inputs_lessons):
            # a learner with no lesson folder at all still gets a row for every lesson the input holds
            holds = f"holds only {listed([show(n) for n in stray[:SHOWN_NAMES]], len(stray))}" if stray else "is empty"
            scan.standins[relative] = (
                f"{lesson.notebook}: not handed in: {student}/ {holds}; "
                f"hand in the lesson notebook as {student}/{lesson.assignment}/{lesson.notebook}"
            )


def scan(source, lesson_ids=None, problems=None):
    """What ``source`` holds for OUT/submitted (a Scan).

    lesson_ids: {assignment: grade ids of its release notebook}, which tell a renamed lesson
    notebook; problems: {(student, assignment): message} known before (e.g. from collecting an
    LMS download), used for a hand-in that has no notebook here.
    """
    source = Path(source)
    lesson_ids = lesson_ids or {lesson.assignment: set() for lesson in LESSONS}
    problems = problems or {}
    found = Scan(source=source)
    learners = set()
    inputs_lessons = held(source, problems)
    for entry in _entries(source, hidden=True):
        if entry.name in IGNORED or (entry.name.startswith(".") and not entry.is_dir(follow_symlinks=False)):
            continue  # Jupyter's checkpoints, a desktop's hidden files
        if entry.is_symlink():
            found.notes.append(f"{show(entry.name)}: a symbolic link, not a folder; skipped: "
                               "copy the learner's folder itself into the hand-ins")
        elif not entry.is_dir():
            found.notes.append(f"{show(entry.name)}: not inside <student_id>/<assignment_id>/; skipped")
        elif not is_safe_id(entry.name):
            found.notes.append(
                f"{show(entry.name)}: not a safe student id ({ID_RULE}); this folder was not graded: "
                "rename it to the learner's id and grade again"
            )
        else:
            learners.add(entry.name)
            _learner(found, entry.name, source / entry.name, lesson_ids, problems, inputs_lessons)
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    for (student, assignment), problem in sorted(problems.items()):
        if student not in learners and is_safe_id(student) and assignment in lessons:
            found.standins[f"{student}/{assignment}/{lessons[assignment].notebook}"] = problem
    return found


def prepared(course, data, name, lesson):
    """(text to put in OUT/submitted, problem): the notebook with restored metadata and inert markup, or a stand-in.

    data: the bytes read from the learner's file; name: how messages name that file. The
    checks of autograder/grading/submission.py read the kit's own copy of those bytes
    (OUT/cache/received/), never the learner's file.
    """
    import nbformat

    release_text = course.release(lesson).read_text(encoding="utf-8")
    copy = course.cache / RECEIVED / lesson.notebook
    copy.parent.mkdir(parents=True, exist_ok=True)
    try:
        copy.write_bytes(data)
        from_notebook(copy)
    except SubmissionError as err:
        return release_text, str(err).replace(str(copy), name)
    finally:
        copy.unlink(missing_ok=True)
    try:
        nb = nbformat.reads(capped_notebook_text(data.decode("utf-8-sig")), as_version=4)  # outputs capped first
        restored = restore_metadata(nb, json.loads(release_text))
        clicked, _notes = saved_answers(restored, name)  # checked here; sanitizing drops the widgets' state
        sanitize_notebook(restored)
        if clicked:
            restored["metadata"][KEPT] = clicked
        return nbformat.writes(nbformat.from_dict(restored)) + "\n", ""
    except Exception as err:  # noqa: BLE001 - whatever stops nbformat, the learner gets 0 and the reason
        return release_text, (
            f"{name}: not a notebook Jupyter can open ({type(err).__name__}: {visible(str(err)[:200])}); "
            "open it in JupyterLab, save it, and hand it in again"
        )


def _read_timestamps(found):
    """{relative: (nbgrader's text, sha256 of the bytes read)} of every timestamp.txt found, taken out of found.files.

    A hand-in whose timestamp.txt cannot be read or is no time becomes a stand-in with that
    problem (its notebook is not read); when it is a stand-in already, its problem stays
    and this one is a note.
    """
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    stamps = {}
    for relative in sorted(r for r in found.files if r.endswith("/" + TIMESTAMP)):
        path = found.files.pop(relative)
        student, assignment, _name = relative.split("/", 2)
        try:
            got = readonce.receive(found.source, path, timestamps.MAX_BYTES, timestamps.FIX)
            stamps[relative] = timestamps.canonical(got.data), got.sha256
        except (readonce.Refused, timestamps.BadTimestamp) as err:
            problem = f"{where(found.source, path)}: {err}"
            notebook = f"{student}/{assignment}/{lessons[assignment].notebook}"
            if notebook in found.files:
                del found.files[notebook]
                found.standins[notebook] = problem
            else:
                found.notes.append(f"{problem} (not used: this hand-in has no notebook to grade either)")
    return stamps


def _read_notebook(found, relative, path):
    """readonce.Received of a lesson notebook; Refused, with the message naming the file, when it cannot be taken."""
    try:
        got = readonce.receive(found.source, path, MAX_NOTEBOOK_BYTES, TOO_LARGE)
    except readonce.Refused as err:
        raise readonce.Refused(f"{where(found.source, path)}: {err}") from None
    if relative in found.checked and found.checked[relative] != got.sha256:
        raise readonce.Refused(f"{where(found.source, path)}: changed while the hand-ins were read (it is not the "
                               f"notebook recognised as {relative.rsplit('/', 1)[1]}); {readonce.AGAIN}")
    return got


def mirror(course, source, label, problems=None):
    """Make OUT/submitted mirror ``source``; return ({(student, assignment) that changed}, notes).

    label names the input (the demo, a folder, a collected download); an OUT that already
    holds another input's hand-ins is refused rather than mixed. problems: see ``scan``.
    Each input file is read once (``readonce``), and only those bytes are used.
    """
    source = Path(source).resolve()
    refused = refusals.submissions_folder(source, course.root) or refusals.other_cohort(course.root, label,
                                                                                          course.state.get("input"))
    if refused:
        raise BatchError(refused)
    submitted = course.root / "submitted"
    course.state["input"] = label
    remove(course.cache / RECEIVED)  # what a killed run left of its copy
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    lesson_ids = {lesson.assignment: grade_ids(course.release(lesson)) for lesson in LESSONS}
    found = scan(source, lesson_ids, problems)
    mirrored = course.state["inputs"]
    received = course.state.setdefault("received", {})  # {relative: sha256 of the bytes read from the input}
    known = course.problems()
    changed = set()
    stamps = _read_timestamps(found)
    for relative, (text, digest_read) in stamps.items():
        student, assignment, _name = relative.split("/", 2)
        received[relative] = digest_read
        digest = sha(text.encode())
        if mirrored.get(relative) == digest and (submitted / relative).exists():
            continue
        changed.add((student, assignment))
        write_if_changed(submitted / relative, text)
        mirrored[relative] = digest
    for relative, path in sorted(found.files.items()):  # the lesson notebooks
        student, assignment, _name = relative.split("/", 2)
        try:
            got = _read_notebook(found, relative, path)
        except readonce.Refused as err:
            found.standins[relative] = str(err)
            continue
        received[relative] = got.sha256
        digest = sha(f"{PREPARATION}\0{got.sha256}".encode())
        target = submitted / relative
        if mirrored.get(relative) == digest and target.exists():
            continue
        changed.add((student, assignment))
        text, problem = prepared(course, got.data, show(path.name), lessons[assignment])
        write_if_changed(target, text)
        if problem:
            known[relative] = problem
        else:
            known.pop(relative, None)
        mirrored[relative] = digest
    for relative, problem in found.standins.items():
        student, assignment, _name = relative.split("/", 2)
        received.pop(relative, None)
        digest = sha(f"stand-in\0{problem}".encode())
        target = submitted / relative
        if mirrored.get(relative) == digest and target.exists() and known.get(relative) == problem:
            continue
        changed.add((student, assignment))
        known[relative] = problem
        course.save_problems(known)  # before the stand-in: a kill must not leave one taken for the learner's own
        write_if_changed(target, course.release(lessons[assignment]).read_bytes())
        mirrored[relative] = digest
    kept = set(stamps) | set(found.files) | set(found.standins)
    for relative in sorted(set(mirrored) - kept):
        student, assignment, _name = relative.split("/", 2)
        changed.add((student, assignment))
        remove(submitted / relative)
        known.pop(relative, None)
        del mirrored[relative]
    for relative in sorted(set(received) - kept):
        del received[relative]
    for student, assignment in changed:
        for folder in (submitted / student / assignment, submitted / student):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
    course.save_problems(known)
    course.save_state()
    return changed, found.notes


def mark_unreadable(course, handins):
    """Hand-ins nbgrader stopped on: put the release notebook in their place, with a message."""
    problems = course.problems()
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    for handin in sorted(handins):
        lesson = lessons[handin.split("/")[1]]
        relative = f"{handin}/{lesson.notebook}"
        problems[relative] = (
            f"{lesson.notebook}: nbgrader could not process this notebook. Open it in JupyterLab, run "
            "Kernel > Restart Kernel and Run All Cells, save it, and hand it in again."
        )
    course.save_problems(problems)  # before the stand-ins: a kill must not leave one taken for the learner's own
    for handin in sorted(handins):
        lesson = lessons[handin.split("/")[1]]
        write_if_changed(course.root / "submitted" / handin / lesson.notebook, course.release(lesson).read_bytes())
