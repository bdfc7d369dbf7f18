"""The lessons' due dates, which `make grade` sets in the gradebook (the course config's c.Deadlines.due).

A lesson gives its own on its first line (``# %% lesson notebook="..." due="2026-03-13 23:59:00 UTC"``).
For the lessons that give none, the course's optional ``dates`` part may: ``due(assignments)`` ->
{assignment: date}, as the graph course's demo term does, relative to the day it is graded. No list
of lessons is kept anywhere else.
"""

from autograder.course import active
from autograder.course.lessons import LESSONS
from autograder.course.paths import NOTEBOOKS

COURSE = object()  # the default of ``dates``: the course's own dates part


def due_dates(lessons=LESSONS, dates=COURSE):
    """{assignment: "YYYY-MM-DD HH:MM:SS UTC"} for every lesson that has a due date; ``dates``: a dates part (or
    None for none), the course's by default."""
    found = {lesson.assignment: lesson.due for lesson in lessons if lesson.due}
    undated = [lesson.assignment for lesson in lessons if not lesson.due]
    if dates is COURSE:
        dates = active.optional_part("dates") if undated else None
    if dates is not None:
        given = dates.due(undated)
        found.update({assignment: given[assignment] for assignment in undated if assignment in given})
    return {lesson.assignment: found[lesson.assignment] for lesson in lessons if lesson.assignment in found}


def undated(lessons=LESSONS, dates=COURSE, notebooks=NOTEBOOKS):
    """A line naming each lesson without a due date, its file (in ``notebooks``) and the fix."""
    dated = due_dates(lessons, dates)
    return [
        f"{lesson.source_path(notebooks)}: lesson {lesson.assignment} has no due date; add "
        f'due="YYYY-MM-DD HH:MM:SS UTC" to its first line (# %% lesson ...)'
        for lesson in lessons
        if lesson.assignment not in dated
    ]
