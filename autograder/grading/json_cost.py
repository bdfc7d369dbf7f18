"""What parsing a JSON text would cost, worked out before it is parsed: how many values it holds and how deep they nest.

``json.loads`` turns three bytes of text (``[],``) into an empty list of some 64 bytes, and every
later step that reads a notebook (nbformat, its validation, copies, the markup policy) pays again
per value: 20 MB of empty lists cost gigabytes. So a learner's notebook is looked at as text first,
at C speed and in memory about its own size: its strings are set aside (each counts as one value),
the values are counted by the commas and brackets left, and the brackets are paired from the inside
out, a level or more a pass, for at most ``MAX_DEPTH`` passes. A text over either cap is refused before
``json.loads`` sees it, so reading it costs memory in proportion to its size.

The caps are far above any notebook Jupyter saves: a lesson notebook holds one value per 40 to 50
bytes and nests 6 deep (widget state some 20).
"""

import re

MAX_DEPTH = 100  # nesting of lists and objects
BASE_VALUES = 100_000  # values any notebook may hold, whatever its size
BYTES_PER_VALUE = 16  # beyond BASE_VALUES, one value per this many bytes of text
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # one pass, no backtracking
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def allowed_values(size):
    """The most values a JSON text of ``size`` bytes may hold."""
    return BASE_VALUES + size // BYTES_PER_VALUE


def too_costly(data):
    """A reason (for a sentence) why ``data`` (the JSON text, as bytes) should not be parsed, or "" when it may be.

    An invalid text may pass: ``json.loads`` then says what is wrong, as soon as it meets the fault.
    """
    skeleton = _STRING.sub(b"0", data)  # each string one byte: what is left is numbers, names and punctuation
    values = skeleton.count(b",") + skeleton.count(b"[") + skeleton.count(b"{") + 1
    if values > allowed_values(len(data)):
        return (
            f"it holds about {values:,} JSON values, more than the {allowed_values(len(data)):,} a notebook "
            f"of its size may hold"
        )
    brackets = skeleton.translate(None, _NOT_BRACKETS)
    del skeleton
    for _level in range(MAX_DEPTH):
        if not brackets:
            return ""
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            return ""  # brackets that do not pair: not JSON, which json.loads says
        brackets = shorter
    return f"its JSON is nested more than {MAX_DEPTH} deep" if brackets else ""
