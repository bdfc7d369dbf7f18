"""The one digest of the files a grade follows from (autograder/course/paths.py's grade_sources).

The record cache (grading/cellgrades.py) keys its records by it, the course's store
(grading/prepared.py) is made from it, and a grade's provenance names it.
"""

import hashlib


def digest_of(files):
    """The sha256 of every file's name (paths.source_names: the same wherever the course is kept) and content,
    in order."""
    return digests_of(files)[0]


def digests_of(files, part=None):
    """(digest_of(files), {part(path): digest_of(that part's files)} or {} without ``part``), each file read once."""
    from autograder.course.paths import source_names  # the course's folders: found when a digest is asked for

    whole, parts, name = hashlib.sha256(), {}, source_names()
    for path in files:
        entry = name(path).encode() + b"\0" + path.read_bytes() + b"\0"
        whole.update(entry)
        if part is not None:
            parts.setdefault(part(path), hashlib.sha256()).update(entry)
    return whole.hexdigest(), {key: digest.hexdigest() for key, digest in parts.items()}
