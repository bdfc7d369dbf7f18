"""Nothing to do costs nothing: a batch whose inputs and outputs are as its last complete run left them answers at once.

After a complete run, the batch keeps in OUT/cache/unchanged.json:

    inputs    one digest of what every output follows from: the input (the hand-ins' content hash,
              provenance.handin_digest, of the submissions folder or the download; the demo cohort is made
              by the course's code), the arguments that change an output (the assignment, the gradebook's
              URL), the checks' digest and the environment of the record cache's key (provenance.fingerprint,
              provenance.environment), the kit's other files (the nbgrader glue and its templates, the
              pipeline, the lessons and the course config in notebooks/) and the GRAPHKIT_ variables
    outputs   the size and modification time of every file OUT holds, its logs and cache aside
    printed   the table and the notes the run printed

``answer`` gives those printed lines back when the inputs hash the same and OUT holds the same
files, untouched; the batch is then not run: no notebook is read, nbgrader is not imported and no
pool starts. Any difference (a hand-in edited, a check or template changed, a grade set in the
formgrader, which writes gradebook.db, an output edited or deleted) runs the batch, which grades
only what changed. A gradebook in a database server can change without a file of OUT changing, so
such a folder always runs the batch.
"""

import json
import os
from pathlib import Path

from autograder.course import active
from autograder.files import sha, write_atomic

NAME = "unchanged.json"  # in OUT/cache
VERSION = 1
SKIPPED = ("cache", "logs")  # OUT's folders left out of the outputs: the graded records, nbgrader's logs
NOT_CODE = ("__pycache__", ".ipynb_checkpoints", ".hypothesis", ".pytest_cache")
DB_SETTING = "c.CourseDirectory.db_url"  # what OUT's config holds when its gradebook is a database (gradebook_url.py)


def _path(out):
    return Path(out) / "cache" / NAME


def _kit_digest():
    """sha256 of the kit's and the course's files, by name and content (bytecode and caches aside)."""
    from autograder.course.paths import EXERCISES, NOTEBOOKS, SOLUTIONS  # the course's folders, found when needed

    course = Path(active.course().__file__).parent
    folders = list(dict.fromkeys([active.KIT_ROOT / "autograder", SOLUTIONS, EXERCISES, NOTEBOOKS, course]))
    parts = []
    for folder in folders:
        for top, names, files in os.walk(folder):
            names[:] = sorted(n for n in names if n not in NOT_CODE)
            for name in sorted(files):
                path = Path(top, name)
                if name.endswith(".pyc") or path.is_symlink() or not path.is_file():
                    continue
                parts.append(f"{path.relative_to(folder.parent).as_posix()}\0{sha(path.read_bytes())}")
    return sha("\n".join(parts).encode())


def uses_a_database(out, db_url=None):
    """Whether the gradebook is a database server's (given now, or remembered in OUT's config)."""
    if db_url:
        return True
    try:
        return DB_SETTING in (Path(out) / "nbgrader_config.py").read_text(encoding="utf-8")
    except OSError:
        return False


def inputs(source, assignment=None, db_url=None):
    """The digest of everything a batch's outputs follow from; ``source``: the submissions folder, the download, or
    None for the demo cohort. None when the source cannot be read whole (the batch then runs)."""
    from autograder.grading import provenance

    handins = provenance.handin_digest(source) if source else ""
    if source and not handins:
        return None  # a folder the digest cannot read whole is graded every time
    parts = {
        "version": VERSION,
        "source": str(Path(source).resolve()) if source else "demo",
        "handins": handins,
        "assignment": assignment or "",
        "db_url": db_url or "",
        "checks": provenance.fingerprint(),
        "environment": provenance.environment(),
        "kit": _kit_digest(),
        "variables": sorted((k, v) for k, v in os.environ.items() if k.startswith("GRAPHKIT_")),
    }
    return sha(json.dumps(parts, sort_keys=True).encode())


def outputs(out):
    """{relative path: [size, modification time in ns]} of every file under OUT but its cache and logs."""
    out = Path(out)
    found = {}
    for top, names, files in os.walk(out):
        if Path(top) == out:
            names[:] = [n for n in names if n not in SKIPPED]
        for name in files:
            path = Path(top, name)
            try:
                stat = path.lstat()
            except OSError:
                continue
            found[path.relative_to(out).as_posix()] = [stat.st_size, stat.st_mtime_ns]
    return found


def forget(out):
    """Drop what the last complete run left: the batch about to run changes OUT."""
    try:
        _path(out).unlink()
    except OSError:
        pass


def remember(out, digest, printed):
    """Keep, after a complete run, the digest of its inputs, OUT's files as it left them and the lines it printed."""
    kept = {"inputs": digest, "outputs": outputs(out), "printed": list(printed)}
    write_atomic(_path(out), json.dumps(kept, sort_keys=True) + "\n")


def answer(out, digest):
    """The lines the last complete run printed when it had the same inputs and OUT is as it left it; else None."""
    try:
        kept = json.loads(_path(out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("inputs") != digest or not isinstance(kept.get("printed"), list):
        return None
    if kept.get("outputs") != outputs(out):
        return None
    return [line for line in kept["printed"] if isinstance(line, str)]
