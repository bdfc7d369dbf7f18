"""One notebook's gradebook rows, read in a few queries, for autograde steps that ask for them cell by cell.

nbgrader's OverwriteCells and SaveAutoGrades look up one row per grade cell (``find_source_cell``,
``find_graded_cell``, ``find_grade``, ``find_comment``), each a query joining up to six tables:
about a hundred queries per hand-in of the course's two lessons. ``NotebookRows`` reads the rows
of one notebook (and, for a submission, its grades and comments) in one query per kind, then
answers those four lookups from them. A name it does not hold is asked of the gradebook itself,
which raises nbgrader's MissingEntry as before; anything else is the gradebook's own attribute.
The rows are the session's own objects, so what a step changes on them is what nbgrader saves.
"""

from nbgrader.api import (
    Assignment,
    BaseCell,
    Comment,
    Grade,
    GradeCell,
    Notebook,
    SourceCell,
    Student,
    SubmittedAssignment,
    SubmittedNotebook,
    TaskCell,
)


class FlushOnCommit:
    """A session whose ``commit`` only flushes: its owner commits the notebook's rows once, at the end.

    A commit expires every row the session holds, so a commit per cell would read each prefetched row again.
    """

    def __init__(self, session):
        self._session = session

    def commit(self):
        self._session.flush()

    def __getattr__(self, name):
        return getattr(self._session, name)


class NotebookRows:
    """Stands in for a Gradebook while the cells of ``notebook`` (of ``assignment``; of ``student``, if given) are
    processed."""

    def __init__(self, gradebook, notebook, assignment, student=None, session=None):
        self._gradebook = gradebook
        self._which = (notebook, assignment, student)
        self.db = session or gradebook.db
        db = gradebook.db

        def of_notebook(query, cell):
            return (
                query.join(Notebook, Notebook.id == cell.notebook_id)
                .join(Assignment, Assignment.id == Notebook.assignment_id)
                .filter(Notebook.name == notebook, Assignment.name == assignment)
            )

        self._source = {c.name: c for c in of_notebook(db.query(SourceCell), SourceCell)}
        # find_graded_cell takes a grade cell before a task cell of the same name
        self._graded = {c.name: c for kind in (TaskCell, GradeCell) for c in of_notebook(db.query(kind), kind)}
        self._grades, self._comments = {}, {}
        if student is not None:
            for rows, kind in ((self._grades, Grade), (self._comments, Comment)):
                query = (
                    db.query(kind, BaseCell.name)
                    .join(BaseCell, BaseCell.id == kind.cell_id)
                    .join(SubmittedNotebook, SubmittedNotebook.id == kind.notebook_id)
                    .join(Notebook, Notebook.id == SubmittedNotebook.notebook_id)
                    .join(SubmittedAssignment, SubmittedAssignment.id == SubmittedNotebook.assignment_id)
                    .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
                    .join(Student, Student.id == SubmittedAssignment.student_id)
                    .filter(Notebook.name == notebook, Assignment.name == assignment, Student.id == student)
                )
                rows.update((name, row) for row, name in query)

    def _held(self, rows, name, *which):
        """The row of ``name`` if it is one of this notebook's, else None."""
        mine = self._which if len(which) == 3 else self._which[:2]
        return rows.get(name) if tuple(which) == mine else None

    def find_source_cell(self, name, notebook, assignment):
        found = self._held(self._source, name, notebook, assignment)
        return found or self._gradebook.find_source_cell(name, notebook, assignment)

    def find_graded_cell(self, name, notebook, assignment):
        found = self._held(self._graded, name, notebook, assignment)
        return found or self._gradebook.find_graded_cell(name, notebook, assignment)

    def find_grade(self, grade_cell, notebook, assignment, student):
        found = self._held(self._grades, grade_cell, notebook, assignment, student)
        return found or self._gradebook.find_grade(grade_cell, notebook, assignment, student)

    def find_comment(self, solution_cell, notebook, assignment, student):
        found = self._held(self._comments, solution_cell, notebook, assignment, student)
        return found or self._gradebook.find_comment(solution_cell, notebook, assignment, student)

    def __getattr__(self, name):
        return getattr(self._gradebook, name)
