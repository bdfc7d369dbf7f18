"""Learners' names and ids shown as text on the formgrader's submission page, never as markup.

nbgrader's formgrader writes a learner's last and first name (or id) into the submission page's
navigation bar through nbconvert, whose templates do not escape: a name holding markup ran as script
on the instructor's Jupyter origin, where it can press every "Full credit" button. The names come from
the gradebook, which a roster import, nbgrader's own ``db student import`` or the formgrader's student
dialog can fill. `make formgrader` adds this step to the page's exporter (on its command line, through
nbgrader's configuration): it escapes every value of the page's resources that the gradebook gave,
so whatever a name holds shows as the characters it is. The kit's own roster import refuses such names
too (autograder/pipeline/roster.py).
"""

from markupsafe import escape
from nbconvert.preprocessors import Preprocessor

FROM_THE_GRADEBOOK = (
    "first_name",
    "last_name",
    "student",
    "assignment_id",
    "notebook_id",
)  # what nbgrader's handler puts in resources


def escaped(value):
    """``value`` as HTML text: ``<``, ``>``, ``&`` and both quotes written as character references; None stays None."""
    return None if value is None else str(escape(str(value)))


class EscapedNames(Preprocessor):
    """The submission page's names and ids (``FROM_THE_GRADEBOOK``) in its resources, escaped as HTML text."""

    def preprocess(self, nb, resources):
        for key in FROM_THE_GRADEBOOK:
            if key in resources:
                resources[key] = escaped(resources[key])
        return nb, resources
