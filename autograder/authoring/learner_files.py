"""The learner bundle's own files (README, Makefile, pytest settings, requirements, CI workflow): the course's,
and the kit's skeleton for every file the course does not give.

A course keeps its learner files in the folder ``learner/`` of its package, beside its parts. The kit's
skeleton (``skeleton/``, beside this module) names no course; a course's file wins over the skeleton's of the
same path, and a course without its own README.md gets one written from its lessons and tasks
(learner_readme.py).
"""

from pathlib import Path

from autograder.authoring.learner_readme import readme
from autograder.course import active

LEARNER_FOLDER = "learner"  # in the course's package: the course's own learner files
SKELETON = Path(__file__).with_name("skeleton")  # the kit's generic learner files
README = "README.md"

SKIP = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".hypothesis", ".DS_Store"}


def tree(folder: Path, prefix: str = ""):
    """{bundle path: bytes} for every file under ``folder`` (none when it does not exist), caches left out."""
    files = {}
    for path in sorted(Path(folder).rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and not SKIP & set(rel.parts) and path.suffix != ".pyc":
            files[f"{prefix}{rel.as_posix()}"] = path.read_bytes()
    return files


def course_learner_folder(root: Path):
    """The course's learner/ folder: in the checkout ``root`` where the course package sits inside the kit."""
    package = Path(active.course().__file__).resolve().parent
    if package.is_relative_to(active.KIT_ROOT):
        package = Path(root) / package.relative_to(active.KIT_ROOT)
    return package / LEARNER_FOLDER


def learner_files(root: Path, references: Path, notebooks: Path):
    """{bundle path: bytes}: the kit's skeleton, a README from the course's lessons, then the course's own files."""
    files = tree(SKELETON)
    files[README] = readme(references, notebooks).encode("utf-8")
    files.update(tree(course_learner_folder(root)))
    return files
