"""Markdown as nbconvert renders it, shown as written when that is safe: its headings written as HTML without an id,
else cleaned by bleach, else as plain text."""

import html
import re
from typing import NamedTuple

from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

from autograder.nbgrader.sanitize.policy import Budget, carries_class, clean_html, is_safe_html, remembered, too_deep

PREFORMATTED = re.compile(r"<pre>[^<]*</pre>")  # what as_preformatted writes: no tag inside, nothing to run
_HEADING_END = re.compile(r"(</h[1-6]>)\n+")


def render_markdown(source, attachments=None):
    """The HTML nbconvert's templates make of a markdown cell (its markdown2html filter)."""
    return MarkdownWithMath(renderer=IPythonRenderer(escape=False, attachments=attachments or {})).render(source)


class Rendering(NamedTuple):
    """A markdown cell as nbconvert renders it, headings aside (see ``_render``)."""

    html: str  # the page's HTML, but for the id and the ¶ link of each markdown heading
    headings: tuple  # (level, inner HTML) of each markdown heading, in order
    written: str  # the HTML the learner wrote into the markdown (block and inline), joined


class _ReadingRenderer(IPythonRenderer):
    """nbconvert's renderer, which also notes the markdown headings and the HTML written into the markdown."""

    def __init__(self, attachments):
        super().__init__(escape=False, attachments=attachments, exclude_anchor_links=True)
        self.headings, self.written = [], []

    def heading(self, text, level, **attrs):
        self.headings.append((level, text))
        return super().heading(text, level, **attrs)

    def block_html(self, html):
        self.written.append(html)
        return super().block_html(html)

    def inline_html(self, html):
        self.written.append(html)
        return super().inline_html(html)


def _render(source, attachments=None):
    """The Rendering of a markdown cell. With no heading, ``html`` is exactly what nbconvert's templates show."""
    if not attachments:
        return _render_plain(source)
    return _rendering(source, attachments)


def _rendering(source, attachments):
    renderer = _ReadingRenderer(attachments)
    page = MarkdownWithMath(renderer=renderer).render(source)
    return Rendering(page, tuple(renderer.headings), "\n".join(renderer.written))


@remembered
def _render_plain(source):
    return _rendering(source, {})


_ATX = re.compile(r" {0,3}#{1,6}(?!#)")  # nbconvert's: no space needed after the #s
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_NOT_PARAGRAPH = re.compile(r" {0,3}([-+*]|\d{1,9}[.)])([ \t]|$)| {0,3}>| {4}|\t")


def _heading_lines(lines):
    """[start, end) of each heading written in markdown at the top level, in order (ATX, setext)."""
    found, fence, paragraph = [], None, None
    for index, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is not None:
            if (
                opening
                and opening.group(1)[0] == fence[0]
                and len(opening.group(1)) >= len(fence)
                and not line[opening.end() :].strip()
            ):
                fence = None
            continue
        if opening and not (opening.group(1)[0] == "`" and "`" in line[opening.end() :]):
            fence, paragraph = opening.group(1), None
        elif not line.strip():
            paragraph = None
        elif _ATX.match(line):
            found.append((index, index + 1))
            paragraph = None
        elif paragraph is not None and _SETEXT.match(line):
            found.append((paragraph, index + 1))
            paragraph = None
        elif paragraph is None and not _NOT_PARAGRAPH.match(line):
            paragraph = index
    return found


def _headings_as_html(source, rendering):
    """``source`` with each markdown heading written as the same HTML heading, without an id; None if unsure."""
    lines = source.split("\n")
    spans = _heading_lines(lines)
    if len(spans) != len(rendering.headings):
        return None
    out, done = [], 0
    for (start, end), (level, inner) in zip(spans, rendering.headings):
        out += lines[done:start]
        out.append(f"<h{level}>{inner}</h{level}>")
        if end < len(lines) and lines[end].strip():
            out.append("")  # an HTML block goes on to the next blank line
        done = end
    return "\n".join(out + lines[done:])


def _same_page(one, other):
    """Whether two renderings show the same page (an HTML heading is followed by one more newline)."""
    return _HEADING_END.sub(r"\1\n", one) == _HEADING_END.sub(r"\1\n", other)


def _checked_render(source, attachments, budget):
    """The Rendering of ``source``, paid for before it is made; None when it is too long, the budget is spent, or it
    fails."""
    if not budget.take(source):
        return None
    try:
        return _render(source, attachments)
    except Exception:  # noqa: BLE001 - a missing attachment, or anything the renderer stops on
        return None


def _passes(rendering, budget):
    """Whether a rendering with no markdown heading shows only what the policy allows."""
    if rendering.headings:
        return False
    if rendering.written:
        if not budget.take(rendering.written) or too_deep(rendering.written) or carries_class(rendering.written):
            return False
    return is_safe_html(rendering.html, budget, rendered=True)


def shown_safely(source, attachments, budget):
    """``source``, or ``source`` with its headings written as HTML, when it renders safely; else None."""
    rendering = _checked_render(source, attachments, budget)
    if rendering is None:
        return None
    if rendering.headings:
        rewritten = _headings_as_html(source, rendering)
        again = _checked_render(rewritten, attachments, budget) if rewritten is not None else None
        if again is None or not _same_page(again.html, rendering.html):
            return None
        source, rendering = rewritten, again
    return source if _passes(rendering, budget) else None


def as_preformatted(text):
    """Markdown that shows ``text`` literally, as preformatted text, whatever it holds."""
    return "<pre>" + html.escape(text.lstrip("\n"), quote=False) + "</pre>"


def safe_markdown(source, attachments=None, budget=None):
    """(markdown, changed): ``source`` itself if it renders safely (its headings as HTML), else bleach's cleaning, else
    plain text."""
    budget = budget or Budget()
    if PREFORMATTED.fullmatch(source):
        return source, False
    shown = shown_safely(source, attachments, budget)
    if shown is not None:
        return shown, shown != source
    if budget.take(source) and not too_deep(source):
        try:
            cleaned = clean_html(source)
        except Exception:  # noqa: BLE001 - shown as plain text below
            cleaned = source  # as if bleach changed nothing: shown as plain text
        shown = shown_safely(cleaned, attachments, budget) if cleaned != source else None
        if shown is not None:
            return shown, True
    return as_preformatted(source), True
