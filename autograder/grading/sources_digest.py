"""The one digest of the files a grade follows from (autograder/course/paths.py's grade_sources).

The record cache (grading/cellgrades.py) keys its records by it, the course's store
(grading/prepared.py) is made from it, and a grade's provenance names it.
"""

import functools
import hashlib
import os


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


@functools.lru_cache(maxsize=1)
def of_grade_sources():
    """(digest_of(paths.grade_sources()), {"course": the digest of its course part, "machinery": of the kit's grading
    layers}), every file read once, once per process: the store's header, the record cache's keys and a grade's
    provenance are all this one digest. A file that cannot be read raises OSError, and nothing is kept."""
    from autograder.course import active, paths

    machinery = os.path.join(str(active.KIT_ROOT / "autograder"), "")

    def part(path):
        return "machinery" if str(path).startswith(machinery) else "course"

    whole, parts = digests_of(paths.grade_sources(), part)
    empty = hashlib.sha256().hexdigest()  # a part with no files: the digest of nothing, as digest_of gives
    return whole, {"course": parts.get("course", empty), "machinery": parts.get("machinery", empty)}
