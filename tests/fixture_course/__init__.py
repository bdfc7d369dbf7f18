"""A fixture course, nothing like the graph course: it proves that the kit's machinery is generic.

One lesson (lesson1_words) with one module (solutions/words.py): a function whose argument is a
string (``longest``), a class that a driver exercises (``Tally``), one answer question, and two
zoo entries. The kit grades it with no change to the machinery: run any command with
GRAPHKIT_COURSE=tests.fixture_course, or its folder's path (docs/authoring.md builds exactly these files).
"""

from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE  # solutions/, exercises/ and notebooks/ are in this folder
CHILD_PARTS = (HERE / "child_side.py",)  # the driver the sandbox child runs against a learner's Tally
