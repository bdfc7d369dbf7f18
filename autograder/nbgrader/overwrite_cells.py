"""nbgrader's OverwriteCells, with the notebook's source and graded cells read in two queries, not two per cell.

Listed in place of nbgrader's step in ``c.Autograde.sanitize_preprocessors`` (notebooks/nbgrader_config.py).
Every check and every change to a cell is nbgrader's own; only where the rows come from differs
(autograder/nbgrader/notebook_rows.py).
"""

from nbgrader.preprocessors import OverwriteCells

from autograder.nbgrader.notebook_rows import NotebookRows


class OverwriteCellsReadOnce(OverwriteCells):
    """nbgrader's OverwriteCells; ``c.OverwriteCells`` settings apply to it."""

    def preprocess_cell(self, cell, resources, cell_index):
        if not isinstance(self.gradebook, NotebookRows):  # the first cell: this notebook's gradebook, just opened
            self.gradebook = NotebookRows(self.gradebook, self.notebook_id, self.assignment_id)
        return super().preprocess_cell(cell, resources, cell_index)
