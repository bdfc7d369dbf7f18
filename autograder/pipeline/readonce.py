"""Open a hand-in file once, and read it whole from that one descriptor: the bytes the kit goes on with.

A learner who can write to the submissions folder while the batch runs (a shared
exchange, a mounted drive) can change a file between the moment the kit looks at it and
the moment it reads it: swap the notebook, or the folder it is in, for a symbolic link
to the instructor's source notebook, or hand in a hard link to it. So a hand-in file is
never looked up twice by its name:

* every folder on the way, below the submissions folder the instructor named, is opened
  with ``O_NOFOLLOW | O_DIRECTORY`` relative to the one before it (``openat``), so no
  symbolic link is followed anywhere on the path, whenever it was put there;
* the file is opened with ``O_NOFOLLOW`` (and ``O_NONBLOCK``, so a named pipe cannot
  hold the batch), and everything is checked on that descriptor (``fstat``): a regular
  file, of one name only (``st_nlink == 1``), no larger than the cap;
* it is read from that descriptor, no further than the cap even if it grows meanwhile,
  and what was read is hashed (sha256).

Any hard link is refused, not only one to a file of another owner: on a mounted drive
every file shows the same owner, and when the grader runs as the owner of the
submissions folder the instructor's own files have that owner too, so the owner cannot
tell a learner's file from the instructor's. An honest hand-in is never a hard link
(nbgrader's collect, the LMS download and ``cp`` all write new files).

The caller works on the bytes returned (``Received``) alone, and never opens the
learner's path again. A refusal is ``Refused``, whose message says what was found and
the fix, without the file's name: the caller names the file.
"""

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
BLOCK = 1 << 20
KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)
AGAIN = "hand it in again, and grade again once the hand-ins stop changing"


class Refused(Exception):
    """The file cannot be taken as a hand-in; the message says why and the fix (the caller names the file)."""


@dataclass(frozen=True)
class Received:
    """What was read from the one descriptor: its bytes and their sha256."""

    data: bytes
    sha256: str


def receive(root, path, limit, too_large="hand in a smaller file"):
    """The bytes of ``path``, a file below the folder ``root``, read as the module says; Refused otherwise.

    root is the submissions folder the instructor named (trusted, and resolved by the
    caller); no symbolic link below it is followed. too_large is the fix shown for a file
    over ``limit`` bytes.
    """
    parts = Path(path).relative_to(root).parts
    if not parts:
        raise Refused("not a file; hand in the file itself")
    folder = os.open(root, FOLDER_FLAGS & ~os.O_NOFOLLOW)
    try:
        for depth, part in enumerate(parts[:-1]):
            try:
                inner = os.open(part, FOLDER_FLAGS, dir_fd=folder)
            except OSError as err:
                above = "/".join(parts[: depth + 1])
                raise Refused(_folder_problem(err, above)) from None
            os.close(folder)
            folder = inner
        try:
            handle = os.open(parts[-1], FILE_FLAGS, dir_fd=folder)
        except OSError as err:
            raise Refused(_file_problem(err)) from None
    finally:
        os.close(folder)
    try:
        return _read(handle, limit, too_large)
    except OSError as err:  # a read error of the disk or the mount: this file only
        raise Refused(f"cannot be read ({os.strerror(err.errno or errno.EIO)}); {AGAIN}") from None
    finally:
        os.close(handle)


def _read(handle, limit, too_large):
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in KINDS if test(info.st_mode)), "not a file")
        raise Refused(f"not a regular file ({kind}); hand in the file itself")
    if info.st_nlink > 1:
        raise Refused(
            f"a hard link: the same file as {info.st_nlink - 1} other name(s), which may be another's "
            "file (the instructor's too); hand in a copy of the file itself (cp, not ln) and grade again"
        )
    if info.st_size > limit:
        raise Refused(f"{info.st_size:,} bytes, more than the cap of {limit:,} bytes; {too_large}")
    digest, data = hashlib.sha256(), bytearray()
    while True:
        block = os.read(handle, min(BLOCK, limit + 1 - len(data)))
        if not block:
            return Received(bytes(data), digest.hexdigest())
        digest.update(block)
        data += block
        if len(data) > limit:
            raise Refused(f"grew past the cap of {limit:,} bytes while it was read; {AGAIN}")


def _file_problem(err):
    if err.errno in (errno.ELOOP, errno.EMLINK):
        return "a symbolic link, not a file; hand in the file itself, not a link to it"
    if err.errno == errno.ENOENT:
        return f"gone: it was removed or renamed while the hand-ins were read; {AGAIN}"
    return f"cannot be opened ({os.strerror(err.errno)}); {AGAIN}"


def _folder_problem(err, above):
    if err.errno in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR):
        return (
            f"{above} is no longer a folder (a symbolic link, or a file, put there while the hand-ins were "
            f"read); hand in the files themselves, in folders, and grade again"
        )
    if err.errno == errno.ENOENT:
        return f"{above} is gone: it was removed or renamed while the hand-ins were read; {AGAIN}"
    return f"{above} cannot be opened ({os.strerror(err.errno)}); {AGAIN}"
