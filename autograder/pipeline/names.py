"""Learners' ids and file names as the kit takes them and shows them in messages.

A learner's id is a folder name and an nbgrader id, which nbgrader reads as a glob pattern and a path: only a safe
one is used. Names are shown escaped when they hold a quote, a backslash, or any character that is not printable.
"""

import re

SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
ID_RULE = "a letter or digit, then up to 63 letters, digits, '_', '.' or '-'"
SHOWN_NAMES = 5  # names a message or a folder's notes list, before they count the rest


def is_safe_id(name):
    return bool(SAFE_ID.fullmatch(name))


def show(name):
    """A file or folder name as a message shows it: quoted, with escapes, when it holds odd characters.

    Odd is a quote, a backslash or anything str.isprintable() refuses: control characters
    (C0, C1, escape sequences), bidi controls such as a right-to-left override, zero-width
    and separator characters. repr() writes each of those as a visible \\x, \\u escape.
    """
    return name if name.isprintable() and not any(c in name for c in "\"'\\") else repr(name)


def visible(text):
    """A message that may quote a name (an exception's, say), with every character str.isprintable() refuses escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def listed(names, total=None):
    """Names joined by commas: at most SHOWN_NAMES of them, then how many more of ``total`` (a folder may hold 80,000
    files)."""
    shown = names[:SHOWN_NAMES]
    more = (len(names) if total is None else total) - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more > 0 else "")
