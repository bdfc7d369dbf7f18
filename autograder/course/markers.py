"""nbgrader's solution markers, read in one place.

A solution region is the lines strictly between a ``### BEGIN SOLUTION`` line and
the next ``### END SOLUTION`` line (each alone on its line, indented or not).
"""

import re

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")  # none may reach a learner


def region_spans(text):
    """[(begin line, end line)], 1-based line numbers of the marker lines of each solution region."""
    spans, start = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() == BEGIN and start is None:
            start = number
        elif line.strip() == END and start is not None:
            spans.append((start, number))
            start = None
    return spans


def solution_regions(text):
    """[[line, ...]]: the lines inside each solution region."""
    lines = text.splitlines()
    return [lines[begin : end - 1] for begin, end in region_spans(text)]


def replace_regions(text, replace):
    """The text with each region, markers included, replaced by ``replace(indent, begin line)`` (a string).

    ``indent`` is the BEGIN marker's indentation, ``begin line`` its 1-based number.
    """
    lines = text.splitlines(keepends=True)
    out, previous = [], 0
    for begin, end in region_spans(text):
        out += lines[previous : begin - 1]
        marker = lines[begin - 1]
        out.append(replace(marker[: len(marker) - len(marker.lstrip())], begin))
        previous = end
    return "".join(out + lines[previous:])


def drop_markers(text):
    """The text with the marker lines removed and the solutions kept."""
    return "".join(line for line in text.splitlines(keepends=True) if line.strip() not in (BEGIN, END))


_TOP_LEVEL = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)\b", re.MULTILINE)


def task_at(lines, begin):
    """The task a region whose BEGIN marker is on line ``begin`` (1-based) of ``lines`` belongs to, or "".

    The task is the top-level function or class around the region: a method's region belongs to its
    class (a region in ``Model.__init__`` is task ``Model``), as the public tests and `make check` name it.
    """
    found = _TOP_LEVEL.findall("\n".join(lines[:begin]))
    return found[-1] if found else ""
