"""nbgrader settings for the fixture course: the kit's own, with this course's folder (its due date is its lesson's)."""

import os
from pathlib import Path

import autograder

c = get_config()  # noqa: F821 -- nbgrader provides get_config when it loads this file
# The kit's settings (its preprocessors, the late penalty, the LMS collector) are the graph course's file's.
_KIT = Path(autograder.__file__).resolve().parents[1] / "notebooks" / "nbgrader_config.py"
exec(compile(_KIT.read_text(encoding="utf-8"), str(_KIT), "exec"), {"get_config": lambda: c, "__file__": str(_KIT)})
c.CourseDirectory.course_id = "fixture"
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
