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

The input is read by autograder/pipeline/folder_scan.py, and names are shown by autograder/pipeline/names.py.
Files are compared by hash with what was mirrored last time (cache/state.json), so an
unchanged input writes nothing and only the hand-ins that changed are graded again.
"""

import json
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.course.metadata import restore_metadata
from autograder.course.saved_answers import KEPT, saved_answers
from autograder.files import sha, write_if_changed
from autograder.grading.submission import MAX_NOTEBOOK_BYTES, SubmissionError, from_notebook
from autograder.nbgrader.capped_outputs import capped_notebook_text
from autograder.nbgrader.course_folder import BatchError, remove
from autograder.nbgrader.sanitize.notebook import sanitize_notebook
from autograder.pipeline import folder_scan, readonce, refusals, timestamps
from autograder.pipeline.folder_scan import grade_ids, where
from autograder.pipeline.names import show, visible
from autograder.pipeline.timestamps import TIMESTAMP

# Part of every mirrored notebook's hash: raised whenever prepared() changes what it writes,
# so notebooks mirrored by an older kit are prepared (and graded) again.
PREPARATION = "sanitized-3"  # 3: the widgets' answers kept
RECEIVED = "received"  # OUT/cache/received/: the kit's copy of one notebook's bytes while it is checked
TOO_LARGE = "clear the notebook's outputs and hand it in again"


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
        raise readonce.Refused(
            f"{where(found.source, path)}: changed while the hand-ins were read (it is not the "
            f"notebook recognised as {relative.rsplit('/', 1)[1]}); {readonce.AGAIN}"
        )
    return got


def mirror(course, source, label, problems=None):
    """Make OUT/submitted mirror ``source``; return ({(student, assignment) that changed}, notes).

    label names the input (the demo, a folder, a collected download); an OUT that already
    holds another input's hand-ins is refused rather than mixed. problems: see ``scan``.
    Each input file is read once (``readonce``), and only those bytes are used.
    """
    source = Path(source).resolve()
    refused = refusals.submissions_folder(source, course.root) or refusals.other_cohort(
        course.root, label, course.state.get("input")
    )
    if refused:
        raise BatchError(refused)
    submitted = course.root / "submitted"
    course.state["input"] = label
    remove(course.cache / RECEIVED)  # what a killed run left of its copy
    lessons = {lesson.assignment: lesson for lesson in LESSONS}
    lesson_ids = {lesson.assignment: grade_ids(course.release(lesson)) for lesson in LESSONS}
    found = folder_scan.scan(source, lesson_ids, problems)
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
