"""Where the course's files live in a checkout of the kit."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: solutions/, exercises/, notebooks/, autograder/
REFERENCE = ROOT / "solutions" / "graph.py"  # the one source of truth for the four functions
STUB = ROOT / "exercises" / "graph.py"  # generated from the reference by `make stubs`
NOTEBOOKS = ROOT / "notebooks"  # the nbgrader course: nbgrader_config.py, lessons/, source/


def reference_source():
    """The reference module's text."""
    return REFERENCE.read_text(encoding="utf-8")
