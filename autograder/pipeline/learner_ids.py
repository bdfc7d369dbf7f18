"""Who handed a download's files in: a student id for each LMS login and user id, the same in every download, and the
LMS's own ids of each learner, kept for the export back (autograder/pipeline/canvas.py).

Both are kept beside DEST (the collected submitted/ folder), so DEST stays a submitted/ folder.
"""

import json
import re
from pathlib import Path

from autograder.course.lessons import LESSONS
from autograder.files import write_atomic
from autograder.pipeline.names import ID_RULE, is_safe_id, show

USER_ID = re.compile(r"[0-9]+")
LEARNERS = "learners.json"  # beside DEST: {LMS user id: student id} of every learner collected so far
LMS_IDS = (
    "lms_ids.json"  # beside DEST: {assignment: {student id: {login, user_id, submission_id}}}, for the export back
)


def known_learners(dest):
    """{(login, user id): student id} that earlier downloads gave, from beside dest; each id given once."""
    try:
        known = json.loads((dest.parent / LEARNERS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    given, taken = {}, set()
    for key, student in sorted(known.items() if isinstance(known, dict) else ()):
        login, _, user_id = key.partition("/")
        if (
            is_safe_id(login)
            and "_" not in login
            and USER_ID.fullmatch(user_id)
            and isinstance(student, str)
            and is_safe_id(student)
            and student not in taken
        ):
            given[login, user_id] = student
            taken.add(student)
    return given


def _numeric(user_id):
    return len(user_id), user_id  # digit strings in numeric order, however long


def student_ids(uploads, known, zip_name):
    """({(login, user id): student id}, notes): each LMS user id of a login is a learner of their own.

    A learner that ``known`` (earlier downloads) gives an id keeps it. Otherwise a login
    held by one user id alone, here and in earlier downloads, is its student id; a login
    shared gives ``<login>_<user id>``.
    """
    holders, earlier = {}, {}
    for upload in uploads:
        holders.setdefault(upload.student, set()).add(upload.user_id)
    for login, user_id in known:
        earlier.setdefault(login, set()).add(user_id)
    given, notes = {}, []
    for login, user_ids in sorted(holders.items()):
        here = sorted(user_ids, key=_numeric)
        for user_id in here:
            if (login, user_id) in known:
                given[login, user_id] = known[login, user_id]
            elif len(here) == 1 and not earlier.get(login, set()) - {user_id}:
                given[login, user_id] = login
            else:
                given[login, user_id] = f"{login}_{user_id}"
        before = sorted(earlier.get(login, set()) - user_ids, key=_numeric)
        rows = " and ".join(f"{show(given[login, u])} (user id {u})" for u in here)
        also = f"user id(s) {', '.join(before)} of an earlier download"
        if len(here) > 1:
            notes.append(
                f"{zip_name}: the login {show(login)} is shared by LMS user ids {', '.join(here)}"
                f"{f' (and {also})' if before else ''}: graded as {rows}, one row each; "
                "each keeps that student id in later downloads"
            )
        elif (login, here[0]) not in known and given[login, here[0]] != login:
            notes.append(
                f"{zip_name}: the login {show(login)} of LMS user id {here[0]} is that of {also} too: "
                f"graded as {rows}, a row of its own; it keeps that student id in later downloads"
            )
    for key, student in sorted(given.items()):
        if not is_safe_id(student):
            notes.append(
                f"{zip_name}: {show(key[0])} of LMS user id {key[1]}: {show(student)} is not a safe "
                f"student id ({ID_RULE}); their hand-ins were not read: give them a shorter login in the LMS"
            )
            del given[key]
    return given, notes


def keep_ids(dest, assignment, learners):
    """Keep the LMS's ids of this download's learners beside dest (LMS_IDS), with those of other assignments.

    Every learner of the download is kept, graded or not: the LMS has a submission of
    theirs, and the export back to it (autograder/pipeline/canvas.py) gives it a score.
    The submission id is the one of the upload graded (the latest), else of the latest upload.
    """
    known = lms_ids(dest.parent)
    ids = {}
    for student, learner in sorted(learners.items()):
        upload = max(learner.written or learner.uploads, key=lambda u: u.order)
        ids[student] = {"login": upload.student, "user_id": upload.user_id, "submission_id": upload.submission_id}
    known[assignment] = ids
    write_atomic(dest.parent / LMS_IDS, json.dumps(known, indent=1, sort_keys=True) + "\n")


def lms_ids(folder):
    """{assignment: {student id: {"login", "user_id", "submission_id"}}} kept in ``folder`` by earlier downloads.

    Only well-formed rows are read (a lesson of the course, a safe student id, digit ids),
    so a damaged file loses its bad rows and nothing else.
    """
    try:
        known = json.loads((Path(folder) / LMS_IDS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    kept, lessons = {}, {lesson.assignment for lesson in LESSONS}
    for assignment, by in known.items() if isinstance(known, dict) else ():
        if assignment not in lessons or not isinstance(by, dict):
            continue
        kept[assignment] = {
            student: {key: row[key] for key in ("login", "user_id", "submission_id")}
            for student, row in by.items()
            if is_safe_id(student)
            and isinstance(row, dict)
            and all(isinstance(row.get(key), str) for key in ("login", "user_id", "submission_id"))
            and is_safe_id(row["login"])
            and USER_ID.fullmatch(row["user_id"])
            and USER_ID.fullmatch(row["submission_id"])
        }
    return kept
