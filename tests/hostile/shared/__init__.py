"""How a hostile file is read for grading: one module, the shared honest code (honest.py) and then the file.

A hostile file's own definitions come later, so they win; whatever it leaves undefined is honest.
A file whose attack needs nothing defined before it says ``HONEST = False``.
"""

import ast
from pathlib import Path

from autograder.grading import reading, submission

HERE = Path(__file__).resolve().parent
HOSTILE = HERE.parent
HONEST = HERE / "honest.py"


def load(path):
    """The code of the hand-in at ``path``, as the grader reads it (grading/reading.py); a hostile file gets the honest
    code first."""
    read = reading.read(path).code
    if Path(path).resolve().parent == HOSTILE and _wants_honest(read.source):  # one module, as the file was
        (only,) = read.chunks
        read.chunks = [submission.Chunk(only.label, HONEST.read_text(encoding="utf-8") + "\n\n" + only.code)]
    return read


def _wants_honest(text):
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["HONEST"]:
            return ast.literal_eval(node.value) is not False
    return True
