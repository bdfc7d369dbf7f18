"""How a hostile file is read for grading: the shared honest code (honest.py) first, then the file itself.

A hostile file's own definitions come later, so they win; whatever it leaves undefined is honest.
"""

from pathlib import Path

from autograder.grading import submission

HERE = Path(__file__).resolve().parent
HOSTILE = HERE.parent
HONEST = HERE / "honest.py"


def load(path):
    """The submission at ``path``, as autograder's ``load`` reads it; a hostile file gets the honest code first."""
    read = submission.load(path)
    if Path(path).resolve().parent == HOSTILE:
        read.chunks.insert(0, submission.Chunk(f"hostile/shared/{HONEST.name}", HONEST.read_text(encoding="utf-8")))
    return read
