"""Remove a folder a learner's code may have shaped: iteratively, through folder descriptors, never raising.

shutil.rmtree recurses once per level, so a folder chain a few thousand deep ends it in
RecursionError, which `ignore_errors` does not cover. remove_tree walks down and back up with
one open folder at a time: each folder is opened relative to its parent with O_NOFOLLOW (a
symlink is removed, never followed), the way back up is '..' checked against the parent's
device and inode, and a folder on another file system (a mount point) is left alone. It never
raises: what it cannot remove is logged once, and it says whether the path is gone.
"""

import errno
import os
import stat


def _warn(message, *args):
    """A warning in the grader's log (logging is imported only when there is one to write)."""
    import logging

    logging.getLogger(__name__).warning(message, *args)


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class _Level:
    """A folder being emptied: its name in its parent, its parent's (device, inode), the subfolders left."""

    __slots__ = ("name", "parent", "pending")

    def __init__(self, name, parent):
        self.name, self.parent, self.pending = name, parent, None


def remove_tree(path):
    """Remove `path` (a folder and all in it, a file or a link); True when it is gone. Never raises."""
    try:
        return _Removal(os.path.abspath(os.fspath(path))).run()
    except Exception as err:  # noqa: BLE001 - a removal that stops must not stop the grader
        _warn("could not remove %s: %s: %s", path, type(err).__name__, err)
        return False


class _Removal:
    def __init__(self, path):
        self.path = path
        self.failures = 0
        self.first = None  # the first thing that could not be removed, for the log

    def failed(self, what, err):
        self.failures += 1
        if self.first is None:
            self.first = f"{what}: {err.strerror or err}" if isinstance(err, OSError) else f"{what}: {err}"

    def run(self):
        parent_path, name = os.path.split(self.path)
        if not name:
            raise ValueError("will not remove a file system's root")
        try:
            top_parent = os.open(parent_path, _DIR_FLAGS & ~os.O_NOFOLLOW)
        except FileNotFoundError:
            return True
        try:
            gone = self._remove_in(top_parent, name)
        finally:
            os.close(top_parent)
        if self.failures:
            _warn("could not remove %d entries under %s (first: %s)", self.failures, self.path, self.first)
        return gone

    def _remove_in(self, top_parent, name):
        try:
            info = os.lstat(name, dir_fd=top_parent)
        except FileNotFoundError:
            return True
        if not stat.S_ISDIR(info.st_mode):
            return self._unlink(top_parent, name, self.path)
        device = info.st_dev
        parent_info = os.fstat(top_parent)
        current = self._open(top_parent, name, device, self.path)
        if current is None:
            return False
        levels = [_Level(name, (parent_info.st_dev, parent_info.st_ino))]
        try:
            while levels:
                level = levels[-1]
                if level.pending is None:
                    level.pending = self._empty_files(current)
                if level.pending:
                    sub = level.pending.pop()
                    child = self._open(current, sub, device, sub)
                    if child is not None:
                        here = os.fstat(current)
                        levels.append(_Level(sub, (here.st_dev, here.st_ino)))
                        os.close(current)
                        current = child
                    continue
                levels.pop()  # emptied: go up and remove it
                if levels:
                    up = os.open("..", _DIR_FLAGS, dir_fd=current)
                    up_info = os.fstat(up)
                    if (up_info.st_dev, up_info.st_ino) != level.parent:
                        os.close(up)
                        self.failed(level.name, "moved while it was being removed")
                        return False
                else:
                    up = os.dup(top_parent)
                os.close(current)
                current = up
                try:
                    os.rmdir(level.name, dir_fd=current)
                except FileNotFoundError:
                    pass
                except OSError as err:
                    self.failed(level.name, err)
        finally:
            os.close(current)
        return not self.failures

    def _open(self, parent, name, device, what):
        """Open subfolder `name` of `parent` without following a link; None when it cannot or must not be entered."""
        for attempt in (1, 2):
            try:
                fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
            except FileNotFoundError:
                return None
            except OSError as err:
                if err.errno in (errno.ELOOP, errno.ENOTDIR):  # swapped for a link or a file since it was listed
                    self._unlink(parent, name, what)
                    return None
                if err.errno == errno.EACCES and attempt == 1 and self._allow(parent, name):
                    continue
                self.failed(what, err)
                return None
            info = os.fstat(fd)
            if info.st_dev != device:  # a mount point: what is mounted there is not the sandbox's to remove
                os.close(fd)
                self.failed(what, "another file system is mounted there")
                return None
            if info.st_uid == os.geteuid() and info.st_mode & 0o700 != 0o700:
                try:
                    os.fchmod(fd, 0o700)  # a folder without write permission: its entries could not go
                except OSError:
                    pass
            return fd
        return None

    @staticmethod
    def _allow(parent, name):
        """Give an unreadable folder of ours read, write and search permission, without following a link."""
        try:
            fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
        except OSError:
            return False
        try:
            if not stat.S_ISDIR(os.fstat(fd).st_mode):
                return False
            os.chmod(f"/proc/self/fd/{fd}", 0o700)  # the very folder opened, whatever its name now points to
            return True
        except OSError:
            return False
        finally:
            os.close(fd)

    def _empty_files(self, folder):
        """Remove every entry of `folder` that is not a folder; return the names of its subfolders."""
        subfolders = []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    try:
                        is_folder = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_folder = False
                    if is_folder:
                        subfolders.append(entry.name)
                    else:
                        self._unlink(folder, entry.name, entry.name)
        except OSError as err:
            self.failed("a folder's listing", err)
        return subfolders

    def _unlink(self, parent, name, what):
        try:
            os.unlink(name, dir_fd=parent)
            return True
        except FileNotFoundError:
            return True
        except OSError as err:
            self.failed(what, err)
            return False
