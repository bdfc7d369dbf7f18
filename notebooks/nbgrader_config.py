"""nbgrader settings for the graphkit course. Run nbgrader commands from this directory."""

import os

c = get_config()  # noqa: F821 -- nbgrader provides get_config when it loads this file

# The course these assignments belong to; it names the gradebook's course.
c.CourseDirectory.course_id = "graphkit"

# The course is the directory holding this file (source/, release/, submitted/,
# gradebook.db ...), wherever it is checked out or copied.
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))

# What replaces each solution region in the released notebooks.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}

# Seconds one cell may run under `nbgrader validate` and `nbgrader autograde`.
c.Execute.timeout = 30
