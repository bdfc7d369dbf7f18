"""The one digest of the files a grade follows from (autograder/course/paths.py's grade_sources).

The record cache (grading/cellgrades.py) keys its records by it, the course's store
(grading/prepared.py) is made from it, and a grade's provenance names it.
"""

import hashlib


def digest_of(files):
    """The sha256 of every file's name (paths.source_names: the same wherever the course is kept) and content,
    in order."""
    from autograder.course.paths import source_names  # the course's folders: found when a digest is asked for

    digest, name = hashlib.sha256(), source_names()
    for path in files:
        digest.update(name(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
