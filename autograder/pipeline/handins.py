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
  (autograder.nbgrader.sanitize_markup), so nbgrader's formgrader, which shows these
  notebooks, runs nothing a learner wrote;
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
from autograder.files import file_sha, sha, write_if_changed
from autograder.grading.submission import MAX_NOTEBOOK_BYTES, SubmissionError, from_notebook
from autograder.nbgrader.course_folder import BatchError, remove
from autograder.nbgrader.sanitize_markup import sanitize_notebook

SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
ID_RULE = "a letter or digit, then up to 63 letters, digits, '_', '.' or '-'"
TIMESTAMP = "timestamp.txt"
IGNORED = (".ipynb_checkpoints",)
MAX_RENAMED = 10  # notebooks of other names read to find a renamed lesson notebook, in name order
# Part of every mirrored notebook's hash: raised whenever prepared() changes what it writes,
# so notebooks mirrored by an older kit are prepared (and graded) again.
PREPARATION = "sanitized-1"
_PRINTABLE = re.compile(r"[^\x00-\x1f\x7f\"'\\]*")


def is_safe_id(name):
    return bool(SAFE_ID.fullmatch(name))


def show(name):
    """A file or folder name as a message shows it: quoted, with escapes, when it holds odd characters."""
    return name if _PRINTABLE.fullmatch(name) else repr(name)


@dataclass
class Scan:
    """What an input folder holds, as OUT/submitted will mirror it."""

    files: dict = field(default_factory=dict)  # {"student/assignment/name": input path}: lesson notebooks, timestamps
    standins: dict = field(default_factory=dict)  # {"student/assignment/notebook": problem}: the release stands in
    notes: list = field(default_factory=list)  # what was skipped or read another way, and why


def grade_ids(path):
    """The grade ids a notebook file carries, or an empty set when it cannot be read as a notebook."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_NOTEBOOK_BYTES:
            return set()
        cells = json.loads(path.read_bytes().decode("utf-8-sig")).get("cells")
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
        carrying = [name for name in others[:MAX_RENAMED] if grade_ids(folder / name) & lesson_ids]
        if len(carrying) == 1:
            notebook = folder / carrying[0]
            others.remove(carrying[0])
            scan.notes.append(
                f"{prefix}/{show(carrying[0])}: graded as {lesson.notebook}, the lesson notebook it is "
                f"(it holds the lesson's grade cells); next time hand it in as {lesson.notebook}"
            )
    if notebook is not None:
        scan.files[target] = notebook
        for name in links:
            scan.notes.append(f"{prefix}/{show(name)}: a symbolic link, not a file; skipped: hand in the file itself")
        for name in others:
            scan.notes.append(f"{prefix}/{show(name)}: {lesson.assignment} is handed in as {lesson.notebook}; "
                              "this notebook was not graded")
        return ""
    if len(carrying) > 1:
        return (f"{lesson.notebook}: not handed in: {prefix}/ holds several notebooks with the lesson's grade cells "
                f"({', '.join(map(show, carrying))}) and none named {lesson.notebook}; "
                f"keep the one to grade, name it {lesson.notebook} and hand it in again")
    found = [f"{show(n)} (not this lesson's notebook: it holds none of its grade cells)" for n in others]
    found += [f"{show(n)} (a symbolic link)" for n in links] + [show(n) for n in rest]
    holds = f"holds {', '.join(found)}" if found else "is empty"
    return f"{lesson.notebook}: not handed in: {prefix}/ {holds}; hand in the lesson notebook as {lesson.notebook}"


def _learner(scan, student, folder, lesson_ids, problems):
    """Scan one learner's folder; every lesson whose folder it has gets a notebook or a stand-in."""
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    seen, stray = set(), []
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
            scan.notes.append(f"{where}: a symbolic link, not a folder; skipped: hand in the files themselves")
        elif entry.is_dir():
            stray.append(entry.name + "/")
            scan.notes.append(f"{where}: the course has no assignment {entry.name!r}; skipped")
        else:
            stray.append(entry.name)
            home = [f"{student}/{l.assignment}/" for l in LESSONS if l.notebook == entry.name]
            fix = f": move it to {home[0]}" if home else ""
            scan.notes.append(f"{where}: not inside <student_id>/<assignment_id>/; skipped{fix}")
    for lesson in LESSONS:
        relative = f"{student}/{lesson.assignment}/{lesson.notebook}"
        if lesson.assignment in seen:
            continue
        if (student, lesson.assignment) in problems:
            scan.standins[relative] = problems[(student, lesson.assignment)]
        elif not seen:  # a learner with no lesson folder at all still gets a row for every lesson
            holds = f"holds only {', '.join(map(show, stray))}" if stray else "is empty"
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
    found = Scan()
    learners = set()
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
            _learner(found, entry.name, source / entry.name, lesson_ids, problems)
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    for (student, assignment), problem in sorted(problems.items()):
        if student not in learners and is_safe_id(student) and assignment in lessons:
            found.standins[f"{student}/{assignment}/{lessons[assignment].notebook}"] = problem
    return found


def prepared(course, path, lesson):
    """(text to put in OUT/submitted, problem): the notebook with restored metadata and inert markup, or a stand-in."""
    import nbformat

    release_text = course.release(lesson).read_text(encoding="utf-8")
    try:
        from_notebook(path)
    except SubmissionError as err:
        return release_text, str(err).replace(str(path), path.name)
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8-sig"), as_version=4)
        restored = restore_metadata(nb, json.loads(release_text))
        sanitize_notebook(restored)
        return nbformat.writes(nbformat.from_dict(restored)) + "\n", ""
    except Exception as err:  # noqa: BLE001 - whatever stops nbformat, the learner gets 0 and the reason
        return release_text, (
            f"{path.name}: not a notebook Jupyter can open ({type(err).__name__}: {str(err)[:200]}); "
            "open it in JupyterLab, save it, and hand it in again"
        )


def mirror(course, source, label, problems=None):
    """Make OUT/submitted mirror ``source``; return ({(student, assignment) that changed}, notes).

    label names the input (the demo, a folder, a collected download); an OUT that already
    holds another input's hand-ins is refused rather than mixed. problems: see ``scan``.
    """
    source = Path(source).resolve()
    if not source.is_dir():
        raise BatchError(f"{source}: no such folder; pass a folder laid out as <student_id>/<assignment_id>/<notebook>")
    submitted = course.root / "submitted"
    if source == submitted or submitted in source.parents or source in submitted.parents:
        raise BatchError(f"{source}: the hand-ins must be outside {submitted}, which is made from them")
    if course.state.get("input") not in (None, label) and any(submitted.glob("*/*")):
        raise BatchError(
            f"{course.root} holds the grades of another cohort ({course.state['input']}); "
            "grade this one into another folder (OUT=...) or delete that folder first"
        )
    course.state["input"] = label
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    lesson_ids = {lesson.assignment: grade_ids(course.release(lesson)) for lesson in LESSONS}
    found = scan(source, lesson_ids, problems)
    mirrored = course.state["inputs"]
    known = course.problems()
    changed = set()
    for relative, path in found.files.items():
        student, assignment, name = relative.split("/", 2)
        is_notebook = name == lessons[assignment].notebook
        digest = sha(f"{PREPARATION}\0{file_sha(path)}".encode()) if is_notebook else file_sha(path)
        target = submitted / relative
        if mirrored.get(relative) == digest and target.exists():
            continue
        changed.add((student, assignment))
        if is_notebook:
            text, problem = prepared(course, path, lessons[assignment])
            write_if_changed(target, text)
            if problem:
                known[relative] = problem
            else:
                known.pop(relative, None)
        else:
            write_if_changed(target, path.read_bytes())
        mirrored[relative] = digest
    for relative, problem in found.standins.items():
        student, assignment, _name = relative.split("/", 2)
        digest = sha(f"stand-in\0{problem}".encode())
        target = submitted / relative
        if mirrored.get(relative) == digest and target.exists() and known.get(relative) == problem:
            continue
        changed.add((student, assignment))
        known[relative] = problem
        course.save_problems(known)  # before the stand-in: a kill must not leave one taken for the learner's own
        write_if_changed(target, course.release(lessons[assignment]).read_bytes())
        mirrored[relative] = digest
    for relative in sorted(set(mirrored) - set(found.files) - set(found.standins)):
        student, assignment, _name = relative.split("/", 2)
        changed.add((student, assignment))
        remove(submitted / relative)
        known.pop(relative, None)
        del mirrored[relative]
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
