"""Feedback without hidden tests, on test cells only: a learner's own cells show as written."""

from nbgrader import utils
from nbgrader.preprocessors import ClearHiddenTests


class HideHiddenTests(ClearHiddenTests):
    """nbgrader's ClearHiddenTests for feedback, on test cells only: a learner's own cells show as written.

    A stray "BEGIN HIDDEN TESTS" line in a learner's cell would make ClearHiddenTests
    stop that learner's feedback; here it is simply part of their code.
    """

    def preprocess_cell(self, cell, resources, index):
        if utils.is_grade(cell) and not utils.is_solution(cell):
            return super().preprocess_cell(cell, resources, index)
        return cell, resources
