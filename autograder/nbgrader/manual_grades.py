"""What graders set by hand in the gradebook (the formgrader, or nbgrader's API): manual scores and comments.

The gradebook is the one truth about a grade. The formgrader writes a grader's score for a
cell into ``Grade.manual_score`` (and ``extra_credit``) and their comment into
``Comment.manual_comment``; nbgrader's own ``score`` and ``comment`` then prefer them to what
autograding wrote. ``read`` gathers them for the pipeline as plain data, in two queries, so
``make grade`` can show them in every output and notice when one changed.
"""

import hashlib
import json

from nbgrader.api import Assignment, BaseCell, Comment, Grade, Notebook, SubmittedAssignment, SubmittedNotebook


def _of_submissions(query, kind):
    return (
        query.join(BaseCell, BaseCell.id == kind.cell_id)
        .join(SubmittedNotebook, SubmittedNotebook.id == kind.notebook_id)
        .join(SubmittedAssignment, SubmittedAssignment.id == SubmittedNotebook.assignment_id)
        .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
    )


def read(gradebook):
    """{"student/assignment": {"grades": {cell: {...}}, "comments": {cell: text}}} of every hand-in a grader touched.

    A grade entry holds the grader's ``score`` (None when they gave only extra credit),
    ``auto_score`` (what autograding gave), ``max_score`` and ``extra_credit`` (0.0 if none).
    A comment is the grader's own text; an empty one counts as none. Hand-ins nobody
    graded by hand are left out.
    """
    found = {}

    def entry(student, assignment):
        return found.setdefault(f"{student}/{assignment}", {"grades": {}, "comments": {}})

    db = gradebook.db
    grades = _of_submissions(
        db.query(Grade, BaseCell.name, SubmittedAssignment.student_id, Assignment.name), Grade
    ).filter((Grade.manual_score.isnot(None)) | ((Grade.extra_credit.isnot(None)) & (Grade.extra_credit != 0)))
    for grade, cell, student, assignment in grades:
        entry(student, assignment)["grades"][cell] = {
            "score": grade.manual_score,
            "auto_score": grade.auto_score,
            "max_score": grade.max_score,
            "extra_credit": grade.extra_credit or 0.0,
        }
    comments = _of_submissions(
        db.query(Comment.manual_comment, BaseCell.name, SubmittedAssignment.student_id, Assignment.name), Comment
    ).filter(Comment.manual_comment.isnot(None))
    for text, cell, student, assignment in comments:
        if text.strip():
            entry(student, assignment)["comments"][cell] = text
    return {handin: found[handin] for handin in sorted(found)}


def digest(marks):
    """A short hash of one hand-in's marks (as ``read`` gives them); '' when there are none."""
    if not marks or not (marks.get("grades") or marks.get("comments")):
        return ""
    return hashlib.sha256(json.dumps(marks, sort_keys=True).encode()).hexdigest()[:16]


def notebook_marks(gradebook, notebook, assignment, student):
    """({grade cell: (auto score, manual score)}, {cell: manual comment}) of one submitted notebook."""
    db = gradebook.db

    def of_notebook(query, kind):
        return (
            _of_submissions(query, kind)
            .join(Notebook, Notebook.id == SubmittedNotebook.notebook_id)
            .filter(Assignment.name == assignment, SubmittedAssignment.student_id == student, Notebook.name == notebook)
        )

    grades = {
        cell: (auto, manual)
        for cell, auto, manual in of_notebook(db.query(BaseCell.name, Grade.auto_score, Grade.manual_score), Grade)
    }
    comments = {
        cell: text
        for cell, text in of_notebook(db.query(BaseCell.name, Comment.manual_comment), Comment)
        if text and text.strip()
    }
    return grades, comments
