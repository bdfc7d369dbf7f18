"""Blocks of a Markdown page that a command writes, so that no figure on the page is typed by hand.

A block is the text between two comment lines, which Markdown does not show:

    <!-- begin bench: written by make bench; do not edit -->
    ...
    <!-- end bench -->

``rewrite`` replaces what is between them and keeps the rest of the page as it is.
"""

import contextlib
import io
import re
import sys
from pathlib import Path

from autograder.files import write_atomic


class MissingBlock(ValueError):
    """The page has no such block; the message names the page and the comment lines to add."""


def _pattern(name):
    return re.compile(
        rf"(^<!-- begin {re.escape(name)}\b[^\n]*-->\n)(.*?)(^<!-- end {re.escape(name)} -->$)",
        re.DOTALL | re.MULTILINE,
    )


def block(text, name):
    """The body of block ``name`` in ``text`` (None when there is none)."""
    found = _pattern(name).search(text)
    return found.group(2) if found else None


def replace(text, name, body):
    """``text`` with block ``name`` holding ``body`` instead."""
    pattern = _pattern(name)
    if not pattern.search(text):
        raise MissingBlock(name)
    body = body if body.endswith("\n") or not body else body + "\n"
    return pattern.sub(lambda found: found.group(1) + body + found.group(3), text, count=1)


def rewrite(path, name, body, command):
    """Write ``body`` into block ``name`` of the page at ``path``."""
    path = Path(path)
    try:
        new = replace(path.read_text(encoding="utf-8"), name, body)
    except MissingBlock:
        raise MissingBlock(
            f"{path}: no block {name!r} to write into; add the two lines "
            f"'<!-- begin {name}: written by {command}; do not edit -->' and '<!-- end {name} -->' where it goes"
        ) from None
    write_atomic(path, new)


class Tee(io.TextIOBase):
    """A text stream that writes to ``stream`` and keeps a copy of everything written."""

    def __init__(self, stream):
        super().__init__()
        self.stream, self.copy = stream, io.StringIO()

    def write(self, text):
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


@contextlib.contextmanager
def recorded():
    """Everything printed to stdout inside the block still goes there; yields the Tee that keeps a copy."""
    tee = Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield tee
