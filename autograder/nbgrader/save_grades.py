"""nbgrader's SaveAutoGrades, with the submission's grades and comments read in two queries and saved in one commit.

Listed in place of nbgrader's step in ``c.Autograde.autograde_preprocessors`` (notebooks/nbgrader_config.py).
nbgrader looks up each grade and comment with a query of its own and commits after each cell;
here the notebook's rows are read at once (autograder/nbgrader/notebook_rows.py), each cell's
change is flushed as nbgrader makes it, and the notebook's scores and comments are committed
together once the last cell is done. What is saved, cell by cell, is nbgrader's own logic.
"""

from nbgrader.api import Gradebook
from nbgrader.preprocessors import NbGraderPreprocessor, SaveAutoGrades

from autograder.nbgrader.notebook_rows import FlushOnCommit, NotebookRows


class SaveAutoGradesAtOnce(SaveAutoGrades):
    """nbgrader's SaveAutoGrades, one commit per notebook."""

    def preprocess(self, nb, resources):
        found = resources["nbgrader"]
        self.notebook_id, self.assignment_id = found["notebook"], found["assignment"]
        self.student_id, self.db_url = found["student"], found["db_url"]
        with Gradebook(self.db_url) as gradebook:
            self.gradebook = NotebookRows(
                gradebook, self.notebook_id, self.assignment_id, self.student_id, session=FlushOnCommit(gradebook.db)
            )
            nb, resources = NbGraderPreprocessor.preprocess(self, nb, resources)  # the cells, as SaveAutoGrades does
            gradebook.db.commit()
        return nb, resources
