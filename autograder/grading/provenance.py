"""What made a grade: the hand-in, the checks, the kit and the environment that graded it, as plain data.

A grade's provenance is a small dict of strings:

    handin      sha256 of the hand-in as graded (a file's bytes; a folder's files, by name)
    checks      the digest of everything that decides a grade: fingerprint(), which the record cache's keys hold too
    course      that digest's course part (checks, judges, references, lesson sources)
    machinery   and its machinery part (the kit's grading layers): fingerprints()
    kit         the kit's version
    python      the interpreter and its version
    packages    {name: version} of the packages a grade follows from (PACKAGES)
    isolation   how learner code ran: "full", "limits", or "none" when the sandbox could not start
    graded_at   when it was graded, UTC, to the second

environment() is the part that is neither code nor time (Python, the packages, the isolation mode):
it joins every record's cache key, so that a new Python or Hypothesis grades afresh. short() is the
one line a feedback page shows; differences() names what two provenances disagree on, in words.
"""

import datetime
import functools
import hashlib
import json
import os
import platform
import re
import sys
from pathlib import Path

from autograder.course.paths import grade_sources
from autograder.files import write_atomic
from autograder.grading.sources_digest import of_grade_sources
from autograder.sandbox import isolation

KIT = "graphkit"
PACKAGES = ("hypothesis", "nbgrader", "nbformat", "nbconvert")  # the examples drawn; nbgrader's scoring and pages
ENVIRONMENT = ("python", "packages", "isolation")
FIELDS = ("handin", "checks", "course", "machinery", "kit", *ENVIRONMENT, "graded_at")
SHORT = 12  # hex digits of a digest in the short form


@functools.lru_cache(maxsize=None)
def _version(name):
    """The installed version of ``name``: from the first of its .dist-info folders on sys.path, as importlib.metadata
    finds it (named NAME-VERSION.dist-info by every installer of wheels), without importing importlib.metadata unless
    there is none; "none" when it is not installed."""
    prefix = re.sub(r"[-_.]+", "_", name).lower() + "-"  # the name as wheels spell it in their folder's
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for found in names:
            if found.endswith(".dist-info") and found.lower().startswith(prefix):
                return found[len(prefix) : -len(".dist-info")]
    import importlib.metadata  # an egg-info or other install: ask the library

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def isolation_mode():
    """ "full" or "limits": how the sandbox runs learner code here; "none" when it refuses to start."""
    try:
        return isolation.mode()
    except isolation.IsolationError:
        return "none"


@functools.lru_cache(maxsize=4)
def _environment(limits_asked):
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "packages": {name: _version(name) for name in PACKAGES},
        "isolation": isolation_mode(),
    }


def environment():
    """{"python", "packages", "isolation"} of this process (the isolation mode as GRAPHKIT_SANDBOX asks now)."""
    found = _environment(isolation.asked_for_limits())
    return {**found, "packages": dict(found["packages"])}


def fingerprinted_files():
    """Every file whose content can change a grade (autograder/course/paths.py's one list); tests/test_layers.py
    proves nothing grading imports is left out."""
    return grade_sources()


def fingerprint():
    """A hash of everything that decides a grade: a new judge or check regrades every record."""
    return of_grade_sources()[0]


def fingerprints():
    """fingerprint()'s files in two parts, each hashed as it hashes them: {"course": the course's checks, judges,
    references and lesson sources, "machinery": the kit's grading layers}, so a regrade can say which changed."""
    return dict(of_grade_sources()[1])


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


MAX_DEPTH = 64  # folders below a hand-in that its digest goes into; the reader refuses deeper ones
MAX_ENTRIES = 1_000_000  # names a folder's digest looks at, in all; past it the folder has no digest


def handin_digest(path):
    """sha256 of a hand-in: a file's bytes; a folder's regular files (below it, by relative name as bytes, links
    not followed), walked without recursion and within MAX_DEPTH and MAX_ENTRIES, so a hostile folder (thousands of
    levels, names that are not UTF-8, a FIFO) costs a bounded walk; "" when it cannot be read."""
    path = Path(path)
    try:
        if not path.is_dir() or path.is_symlink():
            return _file_sha(path)
        digest, seen, stack = hashlib.sha256(), 0, [(b"", 0)]
        while stack:
            relative, depth = stack.pop()
            with os.scandir(os.path.join(os.fsencode(path), relative) if relative else os.fsencode(path)) as found:
                entries = sorted(found, key=lambda entry: entry.name, reverse=True)
            for entry in entries:
                seen += 1
                if seen > MAX_ENTRIES:
                    return ""
                name = os.path.join(relative, entry.name) if relative else entry.name
                if entry.is_dir(follow_symlinks=False):
                    if depth < MAX_DEPTH:
                        stack.append((name, depth + 1))
                elif entry.is_file(follow_symlinks=False):
                    digest.update(name + b"\0" + bytes.fromhex(_file_sha(entry.path)))
        return digest.hexdigest()
    except (OSError, ValueError):
        return ""


def _file_sha(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def of_grading(graded_at=None):
    """The provenance of a grade made now, by this process, without its hand-in's digest."""
    return {
        "checks": fingerprint(),
        **fingerprints(),
        "kit": _version(KIT),
        **environment(),
        "graded_at": graded_at or now(),
    }


def of_handin(path, graded=None):
    """The provenance of grading ``path``: ``graded`` (of_grading's, by default one made now) with its digest."""
    return {"handin": handin_digest(path), **(graded or of_grading())}


def short(found):
    """The one line a feedback page shows: enough to tell two grades' origins apart."""
    if not found:
        return ""
    python = found.get("python", "").split(" ")[-1]
    day = found.get("graded_at", "")[:10]
    parts = [
        f"graded {day}" if day else "",
        f"hand-in {found.get('handin', '')[:SHORT]}" if found.get("handin") else "",
        f"checks {found.get('checks', '')[:SHORT]}",
        f"{KIT} {found.get('kit', '')}",
        f"Python {python}",
        f"isolation {found.get('isolation', '')}",
    ]
    return "; ".join(part for part in parts if part)


WHY = {
    "handin": "the hand-in changed",
    "course": "the course's checks changed",
    "machinery": "the kit's grading code changed",
    "kit": "the kit's version changed",
    "python": "Python changed",
    "packages": "a package changed",
    "isolation": "the isolation mode changed",
}


def differences(before, after):
    """[(field, before, after)] of the fields that decide a grade and differ (graded_at never counts).

    ``checks`` is left out when ``course`` or ``machinery`` says which part changed; a package
    counts on its own, as ``packages.<name>``.
    """
    before, after = before or {}, after or {}
    found = []
    for field in ("handin", "course", "machinery", "checks", "kit", "python", "isolation"):
        if field == "checks" and any(f in ("course", "machinery") for f, *_ in found):
            continue
        if before.get(field) != after.get(field):
            found.append((field, before.get(field), after.get(field)))
    old, new = before.get("packages") or {}, after.get("packages") or {}
    for name in sorted(set(old) | set(new)):
        if old.get(name) != new.get(name):
            found.append((f"packages.{name}", old.get(name), new.get(name)))
    return found


def reasons(before, after):
    """differences() in words: "the course's checks changed", "Python changed (CPython 3.11.7 -> CPython 3.12.1)"."""
    said = []
    for field, old, new in differences(before, after):
        base = field.split(".")[0]
        if base in ("python", "kit", "isolation"):
            said.append(f"{WHY[base]} ({old or '?'} -> {new or '?'})")
        elif base == "packages":
            said.append(f"{field.split('.', 1)[1]} changed ({old or 'none'} -> {new or 'none'})")
        elif base == "checks":
            said.append("the checks changed")
        else:
            said.append(WHY[base])
    return said


STAMPS = "provenance"  # OUT/cache/provenance/<record key>.json


def stamp(cache_dir, key):
    """of_grading() of the record ``key``, written beside the record cache the first time the key is seen and read
    back after: every later run reports the grade as made then, by what made it then."""
    path = Path(cache_dir) / STAMPS / f"{key.replace(':', '-')}.json"
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        if type(found) is dict and all(field in found for field in FIELDS if field != "handin"):
            return found
    except (OSError, ValueError):
        pass
    found = of_grading()
    write_atomic(path, json.dumps(found, indent=1, sort_keys=True) + "\n")
    return found
