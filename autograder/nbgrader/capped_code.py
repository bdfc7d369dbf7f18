"""The code a feedback page shows, capped: a page highlights every character of code it shows.

A hand-in may hold 5 MB of code; highlighting it all took nbgrader's feedback step minutes and wrote a
page of over 100 MB. The page shows each code cell's source up to ``MAX_CELL_CHARS`` characters, and
the notebook's code up to ``MAX_PAGE_CHARS`` in all, cut at the end of a line; a comment says how much
of the cell is not shown, and why. Grading reads the learner's own file, never this page: nothing a
learner wrote is lost to grading, only to the page. A lesson's cells are a few thousand characters.
"""

from nbconvert.preprocessors import Preprocessor

MAX_CELL_CHARS = 20_000  # characters of one code cell shown
MAX_PAGE_CHARS = 200_000  # characters of code a page shows in all
NOTE = (
    "# [{chars:,} more character(s) of this cell not shown: a feedback page shows {most:,} of a cell, {page:,} in all]"
)


def cut(source, most):
    """``source`` cut to at most ``most`` characters, at the end of a line when it has one there, and the note."""
    if len(source) <= most:
        return source
    kept = source[:most]
    if "\n" in kept:
        kept = kept[: kept.rindex("\n") + 1]
    left_out = len(source) - len(kept)
    return (
        kept
        + ("" if kept.endswith("\n") or not kept else "\n")
        + NOTE.format(chars=left_out, most=MAX_CELL_CHARS, page=MAX_PAGE_CHARS)
    )


def cap_code(cells):
    """Cap the source of each code cell (dicts, changed in place); return how many were cut."""
    left, changed = MAX_PAGE_CHARS, 0
    for cell in cells:
        if cell.get("cell_type") != "code" or not isinstance(cell.get("source"), str):
            continue
        shown = cut(cell["source"], min(MAX_CELL_CHARS, left))
        left = max(0, left - len(shown))
        if shown is not cell["source"]:
            cell["source"] = shown
            changed += 1
    return changed


class CappedCode(Preprocessor):
    """A feedback page shows at most MAX_CELL_CHARS of a code cell and MAX_PAGE_CHARS of code in all (``cap_code``)."""

    def preprocess(self, nb, resources):
        changed = cap_code(nb.cells)
        if changed:
            self.log.info("Showed %d code cell(s) cut short", changed)
        return nb, resources
