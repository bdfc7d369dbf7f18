"""A learner's markup made inert before anyone's browser shows it: formgrader pages and feedback.

nbconvert's HTML templates put a notebook's markdown (rendered by its own markdown
renderer) and its cells' text/html outputs into the page as they are, and some
metadata goes into attributes unquoted. A learner who writes ``<script>``,
``<img onerror=...>`` or a ``javascript:`` link in a markdown cell, or leaves such an
output in a code cell, would run code in the instructor's formgrader and in the
feedback page. Markup that runs nothing can still restyle the page: nbgrader's
formgrader finds each grade cell's widgets by id (``$("#" + grade_id)``) and by class
(``.nbgrader_cell``, ``.score``, ``.full-credit``), and Bootstrap's classes
(``modal``, ``navbar-fixed-top``) lay an element over the whole page, so a learner's
element carrying a grade cell's id and those classes turned one click anywhere into
full marks. ``sanitize_notebook`` rewrites a notebook so that nothing in it can:

* a markdown cell is kept as written when the HTML nbconvert renders from it passes
  the policy below unchanged. A heading written in markdown (``## Title``) would get an
  id made from its text from nbconvert (``id="Title"``, so a heading ``## answer_order``
  would take a grade cell's id), so each one is written as the same HTML heading
  without an id (``<h2>Title</h2>``): the cell renders as before, less the heading's
  id and its ¶ link, and this is checked by rendering both. Otherwise the cell's HTML
  is cleaned with bleach (what nbconvert's SanitizeHTML does): tags outside the policy
  show as text, unsafe attributes and links are dropped. If even that renders
  something outside the policy (a ``javascript:`` link written in markdown syntax, a
  missing attachment), the cell shows its source as plain preformatted text;
* code cell outputs are capped in number and size first (capped_outputs.py); then
  they keep plain text, LaTeX and PNG/JPEG images; HTML, markdown and SVG outputs only
  when they pass the policy unchanged (else their plain text stands in); JavaScript,
  widget views and anything else are removed, and so is every output's metadata
  (image sizes go into attributes unquoted);
* raw cells are cleaned with bleach; markdown attachments keep PNG, JPEG and GIF
  images only; execution counts are numbers or nothing; the notebook's widget
  state is dropped;
* the metadata nbconvert's templates make classes of is one word each or dropped: a
  cell's tags (``celltag_<tag>``: a tag ``x modal fade show`` would give the cell three
  Bootstrap classes), its ``magics_language`` and the notebook's language
  (``highlight hl-<language>`` on every code cell); a cell's ``transient`` metadata,
  which Jupyter never saves and whose ``remove_source`` hides the code, is dropped.

Code cells' sources are never touched: they are what is graded, and nbconvert shows
them highlighted and escaped.

The policy: a fixed set of formatting tags (no script, style, iframe, object, form,
math, dialog ...). No ``id`` anywhere, no ``style`` (table cells may say
``text-align``), no ``align``, ``title`` only on links, images and abbreviations. No
``class`` from the learner: only the classes nbconvert's own markdown renderer writes
(``highlight`` and Pygments' token classes in a fenced code block, ``language-...``,
the task list's) may appear in rendered markdown, and only where it writes them; the
HTML a learner writes into markdown carries none. Neither Bootstrap, nbgrader's
formgrader nor the kit's feedback page style or look up any of these (Pygments' are
styled only inside ``.highlight``). Links go to ``http``, ``https``, ``mailto`` or a
``#`` place on the page only: no relative address (it would reach the instructor's
own Jupyter server, a fake "log in again" page) and no protocol-relative one
(``//host``). Nothing is fetched: an image is an inline PNG, JPEG or GIF (``data:``)
or nothing, so no tracking image. Drawings may use a small part of SVG (``SVG_TAGS``:
shapes, lines, paths and text, as the feedback's pictures of a failed check's graph
do) with presentation attributes only: no href or xlink:href, no style, no event
handler, no foreignObject, use, image, animate or script, no class but the pictures'
own (``SVG_CLASSES``), and no attribute value holding parentheses, colons, quotes or
semicolons (so no ``url(...)`` and no ``javascript:``); an SVG output is a single
``<svg>`` element that passes this policy unchanged. HTML passes when bleach, which
parses it as a browser does, finds nothing to change.

The work is bounded before it is done. bleach is slow on long HTML and very slow on
deeply nested HTML (seconds for a few thousand nested elements), and nbconvert's
renderer is slow on some markdown (highlighting a code block), so every render and
every parse is paid for from the notebook's budget (``Budget``) before it runs: a
markdown source, raw cell or output longer than ``MAX_CHECKED_CHARS`` (50,000
characters), HTML rendered from markdown longer than ``MAX_RENDERED_CHARS``, HTML
nested deeper than ``MAX_NESTING``, and anything once a notebook has spent
``MAX_CHECKED_PER_NOTEBOOK`` (200,000 characters rendered or parsed) is neither
rendered nor parsed: such markdown shows as plain text, such a raw cell is escaped,
such an output is removed. The lesson notebooks spend 25,000 and 36,000 characters of
it; the worst a notebook can make this module spend is a few seconds (200 markdown
cells of 49,000 characters: under a second).

autograder/pipeline/handins.py applies this to every notebook mirrored into
OUT/submitted, so what nbgrader's formgrader shows is safe; ``SanitizeMarkup`` is the
same as a preprocessor of ``GenerateFeedback`` (notebooks/nbgrader_config.py), so
feedback is safe too, even for notebooks that reached autograded/ another way.
Sanitizing twice changes nothing.
"""

import copy
import functools
import html
import re
from typing import NamedTuple

import bleach
import nbformat
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors import Preprocessor
from pygments.token import STANDARD_TYPES

from autograder.nbgrader.capped_outputs import cap_notebook

TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "center", "code", "dd", "del", "details", "div", "dl",
    "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark",
    "ol", "p", "pre", "q", "s", "small", "span", "strike", "strong", "sub", "summary", "sup", "table",
    "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul",
})
# Drawings: shapes, lines, paths and text. Nothing that loads, links, runs, styles or animates.
SVG_TAGS = frozenset({"svg", "g", "rect", "circle", "ellipse", "line", "polyline", "path", "text", "tspan", "title"})
TAGS = TAGS | SVG_TAGS
SVG_ATTRIBUTES = frozenset({
    "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy", "width", "height", "d", "points",
    "viewBox", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
    "stroke-linecap", "stroke-linejoin", "opacity", "font-family", "font-size", "font-weight", "font-style",
    "text-anchor", "dominant-baseline", "role", "aria-label",
})
# The classes of the feedback's pictures (graphcourse/picture.py), on a group: no page styles them.
SVG_CLASSES = frozenset({"node", "node first-wrong"})
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
SVG_VALUE = re.compile(r"[-\w\s.,#%]*")  # numbers, colour names and #rgb, font names: no ( : ; ' " & < >
SVG_TRANSFORM = re.compile(r"(\s*(translate|scale|rotate)\([-\d.,\s]*\))+\s*")
SVG_DOCUMENT = re.compile(r"\s*<svg[\s>].*</svg>\s*", re.DOTALL)
TAG_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "width", "height", "title"},
    "abbr": {"title"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan"},
    "ol": {"start"},
    "input": {"type", "checked", "disabled"},  # the check boxes of a markdown task list
}
# What nbconvert's markdown renderer itself writes: a highlighted code block (Pygments' token
# classes, with a lexer's own subtype names appended), a code block in a language Pygments does
# not know, a task list. Only rendered markdown may carry them, and only where the renderer puts them.
_PYGMENTS = "|".join(sorted((name for name in STANDARD_TYPES.values() if name), key=len, reverse=True))
PYGMENTS_CLASS = re.compile(rf"(?:{_PYGMENTS})(?:[A-Z][A-Za-z0-9]*)*")
LANGUAGE_CLASS = re.compile(r"language-[^\s\"'<>&]{1,100}")
RENDERER_CLASSES = {
    "div": lambda value: value == "highlight",
    "span": PYGMENTS_CLASS.fullmatch,
    "code": LANGUAGE_CLASS.fullmatch,
    "li": lambda value: value == "task-list-item",
    "input": lambda value: value == "task-list-item-checkbox",
}
PROTOCOLS = frozenset({"http", "https", "mailto", "data"})  # data: only for inline images, see _address_allowed
LINK_SCHEMES = ("http", "https", "mailto")
INLINE_IMAGE = re.compile(r"data:image/(png|jpeg|gif);base64,[a-z0-9+/=]*", re.IGNORECASE)
SCHEME = re.compile(r"([a-z][a-z0-9+.-]*):", re.IGNORECASE)
TEXT_ALIGN = re.compile(r"text-align:\s*(left|right|center)")
PREFORMATTED = re.compile(r"<pre>[^<]*</pre>")  # what as_preformatted writes: no tag inside, nothing to run
# How nbconvert's renderer closes void elements (<br />, <img ... />); bleach writes <br>, <img ...>.
_VOID_SLASH = re.compile(r'<(br|hr|img|input)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*/>')
_HEADING_END = re.compile(r"(</h[1-6]>)\n+")
# What a browser's URL parser drops before it reads an address (WHATWG URL: leading and
# trailing C0 controls and spaces, and every tab and newline).
_URL_EDGES = re.compile(r"^[\x00-\x20]+|[\x00-\x20]+$")
_URL_BREAKS = re.compile(r"[\t\n\r]")

# Every render and every parse is paid for from the notebook's budget before it runs. Honest
# notebooks stay far below: the lesson notebooks spend 25,000 and 36,000 characters.
MAX_CHECKED_CHARS = 50_000  # one markdown cell, raw cell or HTML output
MAX_RENDERED_CHARS = 200_000  # the HTML rendered from one markdown cell (a highlighted code block is long)
MAX_CHECKED_PER_NOTEBOOK = 200_000  # characters rendered or parsed, all cells together
MAX_NESTING = 64  # elements open at once: bleach's time grows with the square of it
# Every learner's notebook repeats the lesson's own markdown, so rendering and cleaning, both pure
# functions of the text, are remembered for texts up to REMEMBERED_CHARS long: the lesson's cells
# are parsed once per process, not once per hand-in (the budget is spent all the same, so what a
# notebook becomes never depends on what the process saw before). At most REMEMBERED texts are kept.
REMEMBERED, REMEMBERED_CHARS = 2048, 4_000
KEPT_OUTPUT_DATA = ("text/plain", "text/latex", "image/png", "image/jpeg")  # shown escaped or base64 in quotes
CHECKED_OUTPUT_DATA = ("text/html", "text/markdown")  # kept only when they pass the policy as they are
ATTACHMENT_TYPES = ("image/png", "image/jpeg", "image/gif")
OUTPUT_TYPES = ("stream", "display_data", "execute_result", "error")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                   "track", "wbr"})
_TAG = re.compile(r"<(/?)([a-zA-Z][^\s/>]*)[^>]*?(/?)>")
# nbconvert's templates make classes of a few metadata strings: a cell's tags (celltag_<tag>), its
# magics_language and the notebook's language (highlight hl-<language>). Each must be one word.
ONE_WORD = re.compile(r"[A-Za-z0-9_.:+#-]{1,64}")


# ---------------------------------------------------------------- the policy


def _address_allowed(tag, value):
    """Whether a link (``a``) or an image (``img``) may point where ``value`` does.

    Read both as written and with character references decoded, as a browser reads the
    attribute: each reading must be allowed.
    """
    return all(_one_address_allowed(tag, _URL_BREAKS.sub("", _URL_EDGES.sub("", reading)))
               for reading in (value, html.unescape(value)))


def _one_address_allowed(tag, address):
    if tag == "img":
        return bool(INLINE_IMAGE.fullmatch(address))
    if address.startswith("#"):
        return True
    scheme = SCHEME.match(address)
    return scheme is not None and scheme.group(1).lower() in LINK_SCHEMES


def _svg_allowed(tag, name, value):
    """The attributes an SVG element may carry: presentation only, with plain values."""
    if name == "xmlns":
        return tag == "svg" and value == SVG_NAMESPACE
    if name == "transform":
        return bool(SVG_TRANSFORM.fullmatch(value))
    if name == "class":
        return tag == "g" and value in SVG_CLASSES
    return name in SVG_ATTRIBUTES and bool(SVG_VALUE.fullmatch(value))


def _policy(rendered):
    """bleach's attribute filter: what the policy lets through; ``rendered``: markdown as nbconvert renders it."""

    def allowed(tag, name, value):
        if tag in SVG_TAGS and tag != "title":
            return _svg_allowed(tag, name, value)
        if name == "class":
            return rendered and tag in RENDERER_CLASSES and bool(RENDERER_CLASSES[tag](value))
        if name == "style":
            return tag in ("td", "th") and bool(TEXT_ALIGN.fullmatch(value))
        if name not in TAG_ATTRIBUTES.get(tag, ()):
            return False  # id, align, name, data-*, event handlers ... on any tag
        if tag == "input" and name == "type":
            return value == "checkbox"
        if name in ("href", "src"):
            return _address_allowed(tag, value)
        return True

    return allowed


_LEARNER_POLICY, _RENDERED_POLICY = _policy(False), _policy(True)


class _TextAlignOnly:
    """bleach's CSS sanitizer for the one style the policy allows, left exactly as written."""

    def sanitize_css(self, style):
        return style if TEXT_ALIGN.fullmatch(style) else ""


def _remembered(function):
    """``function`` of one string, remembered for short strings (it must be pure); longer ones are worked out each time."""
    remembered = functools.lru_cache(maxsize=REMEMBERED)(function)

    @functools.wraps(function)
    def wrapper(text):
        return remembered(text) if len(text) <= REMEMBERED_CHARS else function(text)

    return wrapper


def _bleach(text, policy):
    return bleach.clean(text, tags=TAGS, attributes=policy, protocols=PROTOCOLS, strip=False,
                        strip_comments=True, css_sanitizer=_TextAlignOnly())


@_remembered
def clean_html(text):
    """``text`` (a learner's HTML) with everything outside the policy escaped or dropped (bleach)."""
    return _bleach(text, _LEARNER_POLICY)


@_remembered
def _clean_rendered(text):
    """The same for HTML nbconvert rendered from markdown: its renderer's own classes stay."""
    return _bleach(text, _RENDERED_POLICY)


@_remembered
def _carries_class(text):
    """Whether HTML a learner wrote into markdown gives any element a class (as bleach parses it)."""
    seen = []

    def record(tag, name, value):
        seen.append(name == "class")
        return False

    bleach.clean(text, tags=TAGS, attributes=record, strip=False, strip_comments=True)
    return any(seen)


def too_deep(text):
    """Whether ``text`` may open more than MAX_NESTING elements at once, read by its tags alone.

    A closing tag closes the element it names and those opened after it, and is ignored
    when no such element is open, as a browser's parser does; no tag is ever closed
    sooner than that, so the depth read is never less than a parser's (but for the few
    formatting elements a parser opens again by itself). The work stops at the first
    element too deep.
    """
    stack = []
    for match in _TAG.finditer(text):
        closing, tag, self_closing = match.groups()
        tag = tag.lower()
        if closing:
            if tag in stack:
                del stack[len(stack) - 1 - stack[::-1].index(tag):]
        elif not self_closing and tag not in _VOID:
            stack.append(tag)
            if len(stack) > MAX_NESTING:
                return True
    return False


class Budget:
    """How many more characters one notebook may have rendered or parsed."""

    def __init__(self, chars=MAX_CHECKED_PER_NOTEBOOK):
        self.left = chars

    def take(self, text, most=MAX_CHECKED_CHARS):
        """Pay for ``text`` before working on it; False (and nothing spent) when it is too long or the budget too small."""
        if len(text) > most or len(text) > self.left:
            return False
        self.left -= len(text)
        return True


def is_safe_html(text, budget=None, rendered=False):
    """Whether HTML passes the policy as it is: bleach, parsing it as a browser does, changes nothing.

    HTML too long for ``budget`` (a Budget; a fresh one when None) or nested too deep is not
    parsed, and does not pass. rendered: ``text`` is markdown as nbconvert rendered it (its
    renderer's own classes may stay).
    """
    if not (budget or Budget()).take(text, MAX_RENDERED_CHARS if rendered else MAX_CHECKED_CHARS):
        return False
    if too_deep(text):
        return False
    text = _VOID_SLASH.sub(r"<\1\2>", text)
    try:
        return (_clean_rendered if rendered else clean_html)(text) == text
    except Exception:  # noqa: BLE001 - what cannot be parsed is not shown
        return False


def is_safe_svg(text, budget=None):
    """Whether an SVG output is one ``<svg>`` element that passes the policy as it is."""
    return bool(SVG_DOCUMENT.fullmatch(text)) and is_safe_html(text, budget)


# ---------------------------------------------------------------- markdown, as nbconvert renders it


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


@_remembered
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
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not line[opening.end():].strip():
                fence = None
            continue
        if opening and not (opening.group(1)[0] == "`" and "`" in line[opening.end():]):
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
    """The Rendering of ``source``, paid for before it is made; None when it is too long, the budget is spent, or it fails."""
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
        if not budget.take(rendering.written) or too_deep(rendering.written) or _carries_class(rendering.written):
            return False
    return is_safe_html(rendering.html, budget, rendered=True)


def _shown_safely(source, attachments, budget):
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
    """(markdown, changed): ``source`` itself if it renders safely (its headings as HTML), else bleach's cleaning, else plain text."""
    budget = budget or Budget()
    if PREFORMATTED.fullmatch(source):
        return source, False
    shown = _shown_safely(source, attachments, budget)
    if shown is not None:
        return shown, shown != source
    if budget.take(source) and not too_deep(source):
        try:
            cleaned = clean_html(source)
        except Exception:  # noqa: BLE001 - shown as plain text below
            cleaned = source  # as if bleach changed nothing: shown as plain text
        shown = _shown_safely(cleaned, attachments, budget) if cleaned != source else None
        if shown is not None:
            return shown, True
    return as_preformatted(source), True


# ---------------------------------------------------------------- cells


def _text(value):
    """A notebook string (a str, or a list of str as nbformat allows), or None."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(part, str) for part in value):
        return "".join(value)
    return None


def _count(value):
    return value if type(value) is int else None


def _safe_output(output, budget):
    """A safe copy of one code cell output, or None to drop it."""
    if not isinstance(output, dict) or output.get("output_type") not in OUTPUT_TYPES:
        return None
    kind = output["output_type"]
    if kind == "stream":
        text = _text(output.get("text"))
        name = output.get("name") if output.get("name") in ("stdout", "stderr") else "stdout"
        return nbformat.from_dict({"output_type": "stream", "name": name, "text": text or ""})
    if kind == "error":
        lines = output.get("traceback")
        lines = [line for line in lines if isinstance(line, str)] if isinstance(lines, list) else []
        return nbformat.from_dict({"output_type": "error", "ename": _text(output.get("ename")) or "",
                                   "evalue": _text(output.get("evalue")) or "", "traceback": lines})
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    kept, removed = {}, []
    for mimetype, value in data.items():
        text = _text(value)
        if mimetype in KEPT_OUTPUT_DATA and text is not None:
            kept[mimetype] = text
        elif mimetype == "text/html" and text is not None and is_safe_html(text, budget):
            kept[mimetype] = text
        elif mimetype == "image/svg+xml" and text is not None and is_safe_svg(text, budget):
            kept[mimetype] = text
        elif mimetype == "text/markdown" and text is not None and _shown_safely(text, None, budget) == text:
            kept[mimetype] = text
        else:
            removed.append(str(mimetype))
    if removed and "text/plain" not in kept:
        kept["text/plain"] = f"[output not shown: {', '.join(sorted(removed))} cannot be shown safely]"
    safe = {"output_type": kind, "data": kept, "metadata": {}}
    if kind == "execute_result":
        safe["execution_count"] = _count(output.get("execution_count"))
    return nbformat.from_dict(safe)


def _cleaned_raw(source, budget):
    """A raw cell's HTML cleaned by bleach, or all of it escaped when it is too long (or bleach fails)."""
    if budget.take(source) and not too_deep(source):
        try:
            return clean_html(source)
        except Exception:  # noqa: BLE001 - escaped below
            pass
    return html.escape(source, quote=False)


def _one_word(value):
    return isinstance(value, str) and bool(ONE_WORD.fullmatch(value))


def _safe_metadata(cell):
    """A cell's tags and magics_language, which templates make classes of, one word each; its transient part dropped."""
    metadata = cell.get("metadata")
    if not isinstance(metadata, dict):
        return
    if "tags" in metadata:
        tags = metadata["tags"]
        kept = [tag for tag in tags if _one_word(tag)] if isinstance(tags, list) else []
        if kept != tags:
            metadata["tags"] = kept
    if "magics_language" in metadata and not _one_word(metadata["magics_language"]):
        del metadata["magics_language"]
    metadata.pop("transient", None)  # never saved by Jupyter; remove_source would hide the code from the grader


def sanitize_cell(cell, budget=None):
    """Make one cell (a dict, changed in place) safe to show; return whether anything changed.

    A code cell's outputs should be capped first (capped_outputs.cap_notebook, as
    ``sanitize_notebook`` does): each one kept costs a copy.
    """
    budget = budget or Budget()
    before = copy.deepcopy(cell)
    _safe_metadata(cell)
    kind = cell.get("cell_type")
    source = _text(cell.get("source"))
    if kind == "markdown":
        attachments = cell.get("attachments")
        if isinstance(attachments, dict):
            kept = {}
            for name, bundle in attachments.items():
                if isinstance(name, str) and isinstance(bundle, dict):
                    images = {t: v for t, v in bundle.items() if t in ATTACHMENT_TYPES and isinstance(v, str)}
                    if images:
                        kept[name] = images
            if kept != attachments:
                cell["attachments"] = nbformat.from_dict(kept)
        elif "attachments" in cell:
            del cell["attachments"]
        cleaned, changed = safe_markdown(source or "", cell.get("attachments"), budget)
        if changed or source is None:
            cell["source"] = cleaned
    elif kind == "raw":
        if source is None or not is_safe_html(source, budget):
            cell["source"] = _cleaned_raw(source or "", budget)
    elif kind == "code":
        outputs = cell.get("outputs") if isinstance(cell.get("outputs"), list) else []
        safe = [o for o in (_safe_output(output, budget) for output in outputs) if o is not None]
        if safe != outputs:
            cell["outputs"] = safe
        if "execution_count" not in cell or _count(cell.get("execution_count")) != cell.get("execution_count"):
            cell["execution_count"] = _count(cell.get("execution_count"))
    return cell != before


def sanitize_notebook(nb):
    """Make a notebook (nbformat 4, as a dict or NotebookNode, changed in place) safe to show; return how many cells' markup or code it changed."""
    metadata = nb.get("metadata")
    if isinstance(metadata, dict):
        metadata.pop("widgets", None)  # nbconvert embeds widget state, and then the widget scripts
        language = metadata.get("language_info")
        if isinstance(language, dict):  # it names the class of every code cell's highlighted source
            if "pygments_lexer" in language and not _one_word(language["pygments_lexer"]):
                del language["pygments_lexer"]
            if "name" in language and not _one_word(language["name"]):
                language["name"] = "python"  # required by nbformat; the kit's notebooks are Python
    capped = {id(cell) for cell in cap_notebook(nb)}
    cells = nb.get("cells") if isinstance(nb.get("cells"), list) else []
    budget = Budget()
    changed = 0
    for position, cell in enumerate(cells):
        if isinstance(cell, dict):
            kit_cell_id(cell, position)  # every id is the kit's; a renumbered id is not markup made safe
            changed += sanitize_cell(cell, budget) | (id(cell) in capped)
    return changed


def kit_cell_id(cell, position):
    """Give a cell that has an id the kit's (``cell-<position>``); return whether it changed.

    nbconvert writes a cell's id into the page as an element id (``id="cell-id=..."``), so a learner's id
    never reaches a page: the kit's are unique, one word, and name no grade cell.
    """
    if "id" not in cell or cell["id"] == f"cell-{position}":
        return False
    cell["id"] = f"cell-{position}"
    return True


class SanitizeMarkup(Preprocessor):
    """Feedback shows a learner's markdown, raw cells and outputs only as inert markup (``sanitize_notebook``)."""

    def preprocess(self, nb, resources):
        changed = sanitize_notebook(nb)
        if changed:
            self.log.info("Made the markup of %d cell(s) safe to show", changed)
        return nb, resources
