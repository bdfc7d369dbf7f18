"""The renderings a feedback page repeats from hand-in to hand-in, kept per process.

Most cells of a hand-in are the course's own, byte for byte the same in every learner's notebook,
and learners who make the same mistake often hand in the same code. nbconvert renders each cell
afresh for every page all the same: a Pygments formatter and its style sheet built for each code
cell, a Markdown parser for each text cell. Profiled on a cohort of 33 hand-ins, the two took a
quarter of the feedback step.

Both renderings depend only on their arguments (the cell's text and metadata, its attachments, the
exporter's settings), so the same arguments give the same HTML: a page written from the memo is
byte for byte the page written without it. A memo is bounded in entries and in the size of what it
keeps, and a text too long to be worth keeping is rendered every time.
"""

import collections
import json

ENTRIES = 512  # renderings kept per memo, the least recently used dropped first
LONGEST = 50_000  # characters of a cell (text, metadata and attachments together) worth keeping


class Memo:
    """A bounded map of renderings by key, least recently used dropped first."""

    def __init__(self, entries=ENTRIES):
        self.entries = entries
        self._kept = collections.OrderedDict()

    def rendered(self, key, render):
        """``render()``, or what it gave for the same ``key`` before; a key None is never kept."""
        if key is None:
            return render()
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        found = self._kept[key] = render()
        if len(self._kept) > self.entries:
            self._kept.popitem(last=False)
        return found


def key_of(*parts):
    """A memo key for ``parts`` (text, or JSON-like data written as sorted JSON); None when they are too long to
    keep or cannot be written."""
    try:
        texts = tuple(part if isinstance(part, str) else json.dumps(part, sort_keys=True) for part in parts)
    except (TypeError, ValueError):
        return None
    return texts if sum(map(len, texts)) <= LONGEST else None


HIGHLIGHTED, MARKDOWN = Memo(), Memo()


def highlight_class():
    """nbconvert's code highlighter, each rendering kept in HIGHLIGHTED."""
    from nbconvert.filters.highlight import Highlight2HTML

    class MemoHighlight2HTML(Highlight2HTML):
        def __call__(self, source, language=None, metadata=None):
            key = key_of("code", source, language or self.pygments_lexer, metadata or {}, self.extra_formatter_options)
            highlight = super().__call__
            return HIGHLIGHTED.rendered(key, lambda: highlight(source, language, metadata))

    return MemoHighlight2HTML


def markdown_key(exporter, context, source):
    """The key of HTMLExporter.markdown2html's rendering of ``source`` in ``context``; None when it reads files (the
    exporter embeds images), which may change between two pages. Only then does the notebook's folder matter."""
    if exporter.embed_images:
        return None
    cell = context.get("cell", {})
    settings = [exporter.anchor_link_text, exporter.exclude_anchor_links, exporter.lexer_options]
    return key_of("markdown", source, cell.get("attachments", {}), settings)
