"""Read a hand-in so that no shape of it makes the grader fail: each failure is a SubmissionError.

A folder is walked without recursion, to a bounded depth and over a bounded number of
entries; a file that cannot be opened, a notebook nested deeper than any saved by Jupyter,
and code nested too deeply for the grader's own parser each give a message that names the
file and says what to do, and the other files of the hand-in are still graded.
"""

import ast
import os
from collections import deque
from contextlib import contextmanager
from pathlib import Path

from autograder.course.cells import MAX_LOOKED_AT
from autograder.grading.submission import MODULE_NAMES, MODULES_SAID, SubmissionError

MAX_FOLDER_DEPTH = 16  # a learner repository keeps its work one or two folders down
MAX_ENTRIES = 20_000  # files and folders looked at in one hand-in, a repository's .git left out
MAX_NOTEBOOK_DEPTH = 100  # JSON nesting: a lesson notebook is 6 deep, widget state some 20
SKIPPED_FOLDERS = (".ipynb_checkpoints", ".git")
MAX_PARSED_HERE = MAX_LOOKED_AT  # characters of a hand-in's code the grader parses itself (some 200 MB at most)


@contextmanager
def reading(path):
    """Whatever reading ``path`` raises (no permission, a name too long, too deep to parse) as a SubmissionError."""
    try:
        yield
    except (RecursionError, MemoryError):
        raise SubmissionError(
            f"{path}: nested too deeply or too large to read; save it again as a plain notebook or module "
            "(in JupyterLab: File > Save) and hand it in again"
        ) from None
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise SubmissionError(
            f"{path}: cannot be read ({reason}); hand in an ordinary file that you can open"
        ) from None


def handed_in_files(folder):
    """([(path, is_link)], notes): the notebooks and lesson modules under ``folder``, in sorted order.

    Breadth first, without recursion: a folder chain thousands deep costs MAX_FOLDER_DEPTH
    listings, and a folder of a million files MAX_ENTRIES entries. Symbolic links to folders
    are not followed; links to files are listed, for the caller to refuse.
    """
    found, notes, seen = [], [], 0
    queue, too_deep = deque([(Path(folder), 0)]), None
    while queue:
        here, depth = queue.popleft()
        entries = []
        try:
            with os.scandir(here) as listing:
                for entry in listing:
                    seen += 1
                    if seen > MAX_ENTRIES:
                        notes.append(
                            f"{folder}: more than {MAX_ENTRIES:,} files and folders, so only some were looked "
                            f"at; hand in only your notebooks and your lesson modules ({MODULES_SAID})"
                        )
                        queue.clear()
                        break
                    entries.append(entry)
        except OSError as err:
            notes.append(
                f"{here}: the folder cannot be read ({err.strerror or type(err).__name__}), so the files in "
                "it were not graded; hand in ordinary folders that you can open"
            )
        for entry in sorted(entries, key=lambda e: e.name):
            try:
                is_folder, is_link = entry.is_dir(follow_symlinks=False), entry.is_symlink()
            except OSError:
                continue
            if is_folder and entry.name not in SKIPPED_FOLDERS:
                if depth < MAX_FOLDER_DEPTH:
                    queue.append((here / entry.name, depth + 1))
                elif too_deep is None:
                    too_deep = here / entry.name
            elif not is_folder and (entry.name.endswith(".ipynb") or entry.name in MODULE_NAMES):
                found.append((here / entry.name, is_link))
    if too_deep is not None:
        notes.append(
            f"{too_deep}: folders more than {MAX_FOLDER_DEPTH} deep are not looked in; "
            f"move your notebooks and lesson modules ({MODULES_SAID}) up and hand them in again"
        )
    return sorted(found), notes


def check_depth(nb, path):
    """SubmissionError when a parsed notebook nests deeper than MAX_NOTEBOOK_DEPTH (copying it would recurse)."""
    stack = [(nb, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NOTEBOOK_DEPTH:
            raise SubmissionError(
                f"{path}: its JSON is nested more than {MAX_NOTEBOOK_DEPTH} deep (in a cell's metadata or outputs), "
                "deeper than any notebook Jupyter saves; remove what was added to its metadata, clear its outputs, "
                "and hand it in again"
            )
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def parsable(chunks):
    """(kept, notes): the chunks the grader's parser can read; a SyntaxError is kept, for the sandbox to report.

    The grader parses at most MAX_PARSED_HERE characters of them, in order: parsing costs it some 500 bytes
    of memory a byte of code. A chunk past that is kept unparsed, and only the sandbox child, under its
    memory limit, parses it (as it runs it).
    """
    kept, notes, left = [], [], MAX_PARSED_HERE
    for chunk in chunks:
        if len(chunk.code) > left:
            kept.append(chunk)
            continue
        left -= len(chunk.code)
        try:
            ast.parse(chunk.code)
        except (SyntaxError, ValueError):
            pass
        except (RecursionError, MemoryError):
            notes.append(
                f"{chunk.label}: its code is nested too deeply for Python to read, so it was not graded; "
                "split the long expression into smaller statements and hand it in again"
            )
            continue
        kept.append(chunk)
    return kept, notes
