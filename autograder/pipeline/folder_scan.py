"""What a submissions folder holds, as OUT/submitted will mirror it: each learner's lesson notebooks and timestamps, a
stand-in with its problem for each hand-in missing, and a note for everything skipped (autograder/pipeline/handins.py).
"""

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.grading.json_cost import too_costly
from autograder.grading.submission import MAX_NOTEBOOK_BYTES
from autograder.pipeline import readonce
from autograder.pipeline.names import ID_RULE, SHOWN_NAMES, is_safe_id, listed, show
from autograder.pipeline.timestamps import TIMESTAMP

IGNORED = (".ipynb_checkpoints",)
MAX_RENAMED = 10  # notebooks of other names read to find a renamed lesson notebook, in name order


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
            self.notes.append(
                f"{self.folder}: {self.count - SHOWN_NAMES:,} more entries skipped as the ones above; "
                "hand in only the lesson notebooks, each as <student_id>/<assignment_id>/<notebook>"
            )


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
    """The grade ids the bytes of a notebook file carry, or an empty set when they are no notebook (or cost too much to
    read)."""
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
            skipped.add(
                f"{prefix}/{show(name)}: {lesson.assignment} is handed in as {lesson.notebook}; "
                "this notebook was not graded"
            )
        skipped.close()
        return ""
    if len(carrying) > 1:
        return (
            f"{lesson.notebook}: not handed in: {prefix}/ holds several notebooks with the lesson's grade cells "
            f"({listed(list(map(show, carrying)))}) and none named {lesson.notebook}; "
            f"keep the one to grade, name it {lesson.notebook} and hand it in again"
        )
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
                problem = (
                    f"{lesson.notebook}: not handed in: {where} is a symbolic link, not a folder; "
                    f"hand in the lesson notebook itself as {where}/{lesson.notebook}"
                )
            else:
                problem = _lesson_folder(scan, student, lesson, folder / entry.name, lesson_ids[lesson.assignment])
            if problem:
                scan.standins[f"{student}/{lesson.assignment}/{lesson.notebook}"] = (
                    problems.get((student, lesson.assignment)) or problem
                )
        elif entry.is_symlink():
            stray.append(entry.name)
            skipped.add(f"{where}: a symbolic link, not a folder; skipped: hand in the files themselves")
        elif entry.is_dir():
            stray.append(entry.name + "/")
            skipped.add(f"{where}: the course has no assignment {entry.name!r}; skipped")
        else:
            stray.append(entry.name)
            home = [f"{student}/{lesson.assignment}/" for lesson in LESSONS if lesson.notebook == entry.name]
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
            found.notes.append(
                f"{show(entry.name)}: a symbolic link, not a folder; skipped: "
                "copy the learner's folder itself into the hand-ins"
            )
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
