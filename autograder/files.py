"""Files written whole or not at all: the one atomic writer of the kit.

Every file the kit writes goes to a temporary ``.<name>.<random>.partial`` beside
it and replaces it in one step, so a kill at any moment leaves either the old
file or the new one, never half of it; ``sweep_partial`` removes what a killed
run left of those temporaries.
"""

import hashlib
import os
import tempfile
from pathlib import Path

PARTIAL = ".partial"  # the suffix of a file still being written
UMASK = os.umask(0o022)
os.umask(UMASK)  # read once: files written through a temporary file get the mode open() would give them


def write_atomic(path, data):
    """Write data (text or bytes) to path in one step."""
    path = Path(path)
    data = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=PARTIAL)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            os.fchmod(handle.fileno(), 0o666 & ~UMASK)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_if_changed(path, data):
    """Write data to path (atomically) unless it already holds exactly that; return whether it wrote."""
    path = Path(path)
    data = data.encode("utf-8") if isinstance(data, str) else data
    if path.is_file() and path.read_bytes() == data:
        return False
    write_atomic(path, data)
    return True


def sweep_partial(root):
    """Remove the temporary files a killed run left under root (hidden, ending in .partial)."""
    for path in Path(root).rglob(f".*{PARTIAL}"):
        if path.is_file() and not path.is_symlink():
            path.unlink()


def sha(data):
    return hashlib.sha256(data).hexdigest()


def file_sha(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
