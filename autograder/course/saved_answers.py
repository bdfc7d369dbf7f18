"""What a course's notebooks save besides their cells (answers clicked in a widget), read by the course's own reader.

The course gives the reader as its optional ``widgets`` part; a course without one saves nothing there.
"""

from autograder.course import active
from autograder.course.cells import KEPT  # noqa: F401 - the metadata key the kit keeps checked answers under


def saved_answers(nb, label):
    """({NAME: value}, [notes]): the answers the notebook's widgets saved, as the course reads and checks them."""
    widgets = active.optional_part("widgets")
    return widgets.saved_answers(nb, label) if widgets else ({}, [])


def answer_chunks(nb, label):
    """([(label, code)], [notes]): those answers as code that runs before the notebook's cells."""
    widgets = active.optional_part("widgets")
    return widgets.chunks(nb, label) if widgets else ([], [])
