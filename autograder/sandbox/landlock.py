"""Limits mode's write barrier: a Landlock domain that lets the child write only inside its own folder.

Full isolation gives the child a private root, so nothing of the grader's is there to write. With
limits only, the child runs as the grader's user and could rewrite what the grader reads later (the
course's store, the kit's own files, a results file). Landlock, an unprivileged Linux security module
(5.13 and later), closes that: between fork and exec the child restricts itself, for good and for
everything it starts, to creating, writing, truncating, renaming and removing files beneath its own
folder (and writing /dev/null); reading stays as it was. From ABI 6 on, the same domain may send no
signal to a process outside it (the grader) and reach no abstract unix socket made outside it.

The calls are made through the C library's syscall(), with the structures laid out as the kernel's
uapi header gives them; where the kernel has no Landlock, `abi()` is 0 and the child runs without the
barrier (the doctor and the results' warning say so).
"""

import ctypes
import ctypes.util
import functools
import os
import struct

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # the same on every architecture
CREATE_RULESET_VERSION = 1  # flag: ask for the ABI version
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

# Access rights to the file system (uapi/linux/landlock.h), and the ABI that brought each.
WRITE_FILE, READ_FILE, READ_DIR = 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE = 1 << 4, 1 << 5
MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = (1 << n for n in range(6, 13))
REFER, TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
WRITING = (
    WRITE_FILE
    | REMOVE_DIR
    | REMOVE_FILE
    | MAKE_CHAR
    | MAKE_DIR
    | MAKE_REG
    | MAKE_SOCK
    | MAKE_FIFO
    | MAKE_BLOCK
    | MAKE_SYM
)
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6
DEVICES_WRITTEN = ("/dev/null",)


class LandlockError(OSError):
    """The barrier could not be put in place: the child must not start without it."""


@functools.lru_cache(maxsize=1)
def _libc():
    return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)


def _syscall(number, *args):
    result = _libc().syscall(ctypes.c_long(number), *args)
    if result < 0:
        errno = ctypes.get_errno()
        raise LandlockError(errno, os.strerror(errno))
    return result


@functools.lru_cache(maxsize=1)
def abi():
    """The kernel's Landlock ABI version; 0 where it has none (or it is turned off)."""
    try:
        return _syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (LandlockError, AttributeError, OSError):
        return 0


def handled(version):
    """The file-system rights a ruleset of ABI `version` takes charge of: every kind of writing."""
    rights = WRITING
    if version >= 2:
        rights |= REFER
    if version >= 3:
        rights |= TRUNCATE
    return rights


def _ruleset(version):
    """A ruleset's attribute bytes (handled_access_fs, then handled_access_net and scoped where known)."""
    if version >= 6:
        return struct.pack("=QQQ", handled(version), 0, SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL)
    if version >= 4:
        return struct.pack("=QQ", handled(version), 0)
    return struct.pack("=Q", handled(version))


def _allow(ruleset, path, rights):
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
        _syscall(SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH), rule, ctypes.c_uint32(0))
    finally:
        os.close(fd)


def restrict(folder):
    """Restrict the calling process, and all it will start, to writing beneath `folder`. Raises LandlockError.

    Run in the child between fork and exec. Sets no_new_privs, which Landlock needs and the child keeps.
    """
    version = abi()
    if not version:
        raise LandlockError(0, "this kernel has no Landlock")
    attr = _ruleset(version)
    buffer = ctypes.create_string_buffer(attr, len(attr))
    ruleset = _syscall(SYS_CREATE_RULESET, buffer, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    try:
        _allow(ruleset, folder, handled(version))
        for device in DEVICES_WRITTEN:
            if os.path.exists(device):
                _allow(ruleset, device, WRITE_FILE | (TRUNCATE if version >= 3 else 0))
        if _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            errno = ctypes.get_errno()
            raise LandlockError(errno, os.strerror(errno))
        _syscall(SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)
