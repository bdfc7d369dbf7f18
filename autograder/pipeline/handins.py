"""Bring the hand-ins into OUT/submitted: mirrored from the input, safe for nbgrader to process.

The input is a folder laid out as nbgrader's submitted/ folder,
``<student_id>/<assignment_id>/<notebook>.ipynb`` (plus timestamp.txt and any other
files). OUT/submitted mirrors it: new and changed files are copied, files gone from the
input are removed. Two things change on the way, never the learner's code:

* each lesson notebook's nbgrader metadata is restored from the release notebook by
  grade id (autograder.course.metadata.restore_metadata), so copied cells or edited
  points, flags and schema versions can neither crash nbgrader nor change a score;
* a notebook that cannot be read (not JSON, not UTF-8, too large, no code cells, or
  nothing nbformat can open) is replaced by the release notebook, and its problem is
  recorded in cache/problems.json: every grade cell then scores 0 and shows a message
  naming the problem and the fix.

Files are compared by hash with what was mirrored last time (cache/state.json), so an
unchanged input writes nothing and only the hand-ins that changed are graded again.
"""

import json
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.files import file_sha, write_if_changed
from autograder.grading.submission import SubmissionError, from_notebook
from autograder.nbgrader.course_folder import BatchError, remove
from autograder.course.metadata import restore_metadata


def scan(source):
    """({relative path: file} of the hand-in files under source, [notes on what was skipped])."""
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    found, notes = {}, []
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if any(part.startswith(".") for part in relative.parts) or (path.is_dir() and not path.is_symlink()):
            continue
        if path.is_symlink():
            notes.append(f"{relative}: a symbolic link, not a file; skipped")
        elif len(relative.parts) < 3:
            notes.append(f"{relative}: not inside <student_id>/<assignment_id>/; skipped")
        elif relative.parts[1] not in lessons:
            notes.append(f"{relative}: the course has no assignment {relative.parts[1]!r}; skipped")
        elif relative.suffix == ".ipynb" and relative.name != lessons[relative.parts[1]].notebook:
            expected = lessons[relative.parts[1]].notebook
            notes.append(f"{relative}: {relative.parts[1]} is handed in as {expected}; this notebook was not graded")
        else:
            found[relative.as_posix()] = path
    return found, notes


def prepared(course, path, lesson):
    """(text to put in OUT/submitted, problem): the notebook with restored metadata, or a stand-in."""
    import nbformat

    release_text = course.release(lesson).read_text(encoding="utf-8")
    try:
        from_notebook(path)
    except SubmissionError as err:
        return release_text, str(err).replace(str(path), path.name)
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        restored = restore_metadata(nb, json.loads(release_text))
        return nbformat.writes(nbformat.from_dict(restored)) + "\n", ""
    except Exception as err:  # noqa: BLE001 - whatever stops nbformat, the learner gets 0 and the reason
        return release_text, (
            f"{path.name}: not a notebook Jupyter can open ({type(err).__name__}: {str(err)[:200]}); "
            "open it in JupyterLab, save it, and hand it in again"
        )


def mirror(course, source, label):
    """Make OUT/submitted mirror ``source``; return ({(student, assignment) that changed}, notes).

    label names the input (the demo, a folder, a collected download); an OUT that already
    holds another input's hand-ins is refused rather than mixed.
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
    found, notes = scan(source)
    mirrored = course.state["inputs"]
    problems = course.problems()
    changed = set()
    for relative, path in found.items():
        digest = file_sha(path)
        target = submitted / relative
        if mirrored.get(relative) == digest and target.exists():
            continue
        student, assignment, name = relative.split("/", 2)
        changed.add((student, assignment))
        if name == lessons[assignment].notebook:
            text, problem = prepared(course, path, lessons[assignment])
            write_if_changed(target, text)
            if problem:
                problems[relative] = problem
            else:
                problems.pop(relative, None)
        else:
            write_if_changed(target, path.read_bytes())
        mirrored[relative] = digest
    for relative in sorted(set(mirrored) - set(found)):
        student, assignment, _name = relative.split("/", 2)
        changed.add((student, assignment))
        remove(submitted / relative)
        problems.pop(relative, None)
        del mirrored[relative]
    for student, assignment in changed:
        for folder in (submitted / student / assignment, submitted / student):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
    course.save_problems(problems)
    course.save_state()
    return changed, notes


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
