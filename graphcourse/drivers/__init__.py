"""Public programs that the sandbox child runs against a learner's module (a check's ``driver``).

Each file here is standard library only, with no imports of the kit: the child runs its text
before its own (graphcourse.CHILD_PARTS), and the grader imports it to run the same program on
the reference (judges.driven_answer). A file ends by adding its drivers to DRIVERS:

    DRIVERS = {**globals().get("DRIVERS", {}), "trace_square": trace_square}

so that the files, run one after another in the child, add up; give each driver a name that says
its lesson.
"""

import importlib
from pathlib import Path

HERE = Path(__file__).parent
FILES = tuple(sorted(path for path in HERE.glob("*.py") if not path.name.startswith("_")))


def all_drivers():
    """{name: driver} of every file here."""
    found = {}
    for path in FILES:
        found.update(importlib.import_module(f"graphcourse.drivers.{path.stem}").DRIVERS)
    return found
