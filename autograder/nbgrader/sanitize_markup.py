"""A learner's markup made inert before anyone's browser shows it: formgrader pages and feedback.

nbconvert's HTML templates put a notebook's markdown (rendered by its own markdown
renderer) and its cells' text/html outputs into the page as they are, and some
metadata goes into attributes unquoted. A learner who writes ``<script>``,
``<img onerror=...>`` or a ``javascript:`` link in a markdown cell, or leaves such an
output in a code cell, would run code in the instructor's formgrader and in the
feedback page. ``sanitize_notebook`` rewrites a notebook so that nothing in it can:

* a markdown cell is kept as written when the HTML nbconvert renders from it passes
  the policy below unchanged. Otherwise its HTML is cleaned with bleach (what
  nbconvert's SanitizeHTML does): tags outside the policy show as text, unsafe
  attributes and links are dropped. If even that renders something outside the
  policy (a ``javascript:`` link written in markdown syntax, a missing attachment),
  the cell shows its source as plain preformatted text;
* code cell outputs keep plain text, LaTeX and PNG/JPEG images; HTML, markdown and
  SVG outputs only when they pass the policy unchanged (else their plain text stands
  in); JavaScript, widget views and anything else are removed, and so is every
  output's metadata (image sizes go into attributes unquoted);
* raw cells are cleaned with bleach; markdown attachments keep PNG, JPEG and GIF
  images only; execution counts are numbers or nothing; the notebook's widget
  state is dropped.

Code cells' sources are never touched: they are what is graded, and nbconvert shows
them highlighted and escaped.

The policy: a fixed set of formatting tags (no script, style, iframe, object, form,
math ...), no event-handler or style attributes (table cells may say
``text-align``), and links and images to http, https, mailto, relative and ``#``
addresses only (an image may also be an inline PNG, JPEG or GIF). Drawings may use a
small part of SVG (``SVG_TAGS``: shapes, lines, paths and text, as the feedback's
pictures of a failed check's graph do) with presentation attributes only: no
href or xlink:href, no style, no event handler, no foreignObject, use, image,
animate or script, and no attribute value holding parentheses, colons, quotes or
semicolons (so no ``url(...)`` and no ``javascript:``); an SVG output is a single
``<svg>`` element that passes this policy unchanged. HTML passes when
bleach, which parses it as a browser does, finds nothing to change. bleach is slow on
long HTML, so a markdown cell, raw cell or output longer than ``MAX_CHECKED_CHARS``
(50,000 characters) is not parsed, nor anything once a notebook has had
``MAX_CHECKED_PER_NOTEBOOK`` (500,000) parsed: such markdown shows as plain text, such
a raw cell is escaped, such an output is removed.

autograder/pipeline/handins.py applies this to every notebook mirrored into
OUT/submitted, so what nbgrader's formgrader shows is safe; ``SanitizeMarkup`` is the
same as a preprocessor of ``GenerateFeedback`` (notebooks/nbgrader_config.py), so
feedback is safe too, even for notebooks that reached autograded/ another way.
"""

import copy
import functools
import html
import re

import bleach
import nbformat
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors import Preprocessor

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
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
SVG_VALUE = re.compile(r"[-\w\s.,#%]*")  # numbers, colour names and #rgb, font names: no ( : ; ' " & < >
SVG_TRANSFORM = re.compile(r"(\s*(translate|scale|rotate)\([-\d.,\s]*\))+\s*")
SVG_DOCUMENT = re.compile(r"\s*<svg[\s>].*</svg>\s*", re.DOTALL)
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
TAG_ATTRIBUTES = {
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan"},
    "ol": {"start"},
    "input": {"type", "checked", "disabled"},  # the check boxes of a markdown task list
}
PROTOCOLS = frozenset({"http", "https", "mailto", "data"})  # data: only for inline images, see _allowed
INLINE_IMAGE = re.compile(r"data:image/(png|jpeg|gif)[;,]")
TEXT_ALIGN = re.compile(r"text-align:\s*(left|right|center)")
PREFORMATTED = re.compile(r"<pre>[^<]*</pre>")  # what as_preformatted writes: no tag inside, nothing to run
_URL_NOISE = re.compile(r"[`\x00-\x20\x7f-\xa0\s]+")
# How nbconvert's renderer closes void elements (<br />, <img ... />); bleach writes <br>, <img ...>.
_VOID_SLASH = re.compile(r'<(br|hr|img|input)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*/>')

# bleach parses as a browser does, but slowly (seconds for a few hundred kilobytes), so what a
# notebook may have checked is capped: a longer markdown cell shows as plain text, a longer
# HTML or markdown output is removed, and once a notebook's budget is spent the same goes for
# the rest of it. Honest notebooks stay far below both.
MAX_CHECKED_CHARS = 50_000  # one markdown cell, raw cell or HTML output
MAX_CHECKED_PER_NOTEBOOK = 500_000
# Every learner's notebook repeats the lesson's own markdown, so rendering and cleaning, both pure
# functions of the text, are remembered for texts up to REMEMBERED_CHARS long: the lesson's cells
# are parsed once per process, not once per hand-in. At most REMEMBERED texts are kept (a few MB).
REMEMBERED, REMEMBERED_CHARS = 2048, 4_000
KEPT_OUTPUT_DATA = ("text/plain", "text/latex", "image/png", "image/jpeg")  # shown escaped or base64 in quotes
CHECKED_OUTPUT_DATA = ("text/html", "text/markdown")  # kept only when they pass the policy as they are
ATTACHMENT_TYPES = ("image/png", "image/jpeg", "image/gif")
OUTPUT_TYPES = ("stream", "display_data", "execute_result", "error")


def _svg_allowed(tag, name, value):
    """The attributes an SVG element may carry: presentation only, with plain values."""
    if name == "xmlns":
        return tag == "svg" and value == SVG_NAMESPACE
    if name == "transform":
        return bool(SVG_TRANSFORM.fullmatch(value))
    if name == "class":
        return bool(SVG_VALUE.fullmatch(value))
    return name in SVG_ATTRIBUTES and bool(SVG_VALUE.fullmatch(value))


def _allowed(tag, name, value):
    """bleach's attribute filter: the attributes the policy lets through."""
    if tag in SVG_TAGS and tag != "title":
        return _svg_allowed(tag, name, value)
    if name in ("class", "title", "align"):
        return True
    if name == "id":
        return tag in HEADINGS  # nbconvert's heading anchors
    if name == "style":
        return tag in ("td", "th") and bool(TEXT_ALIGN.fullmatch(value))
    if name not in TAG_ATTRIBUTES.get(tag, ()):
        return False
    if tag == "input" and name == "type":
        return value == "checkbox"
    if name in ("href", "src"):
        address = _URL_NOISE.sub("", value).lower()
        if address.startswith("data:"):
            return tag == "img" and bool(INLINE_IMAGE.match(address))
    return True


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


@_remembered
def clean_html(text):
    """``text`` with everything outside the policy escaped or dropped (bleach)."""
    return bleach.clean(text, tags=TAGS, attributes=_allowed, protocols=PROTOCOLS, strip=False,
                        strip_comments=True, css_sanitizer=_TextAlignOnly())


class Budget:
    """How many more characters of one notebook bleach may parse."""

    def __init__(self, chars=MAX_CHECKED_PER_NOTEBOOK):
        self.left = chars

    def take(self, text):
        """Spend the budget on ``text``; False (and nothing spent) when it is too long or the budget too small."""
        if len(text) > MAX_CHECKED_CHARS or len(text) > self.left:
            return False
        self.left -= len(text)
        return True


def is_safe_html(text, budget=None):
    """Whether HTML passes the policy as it is: bleach, parsing it as a browser does, changes nothing.

    HTML too long for ``budget`` (a Budget; a fresh one when None) is not parsed, and does not pass.
    """
    if not (budget or Budget()).take(text):
        return False
    text = _VOID_SLASH.sub(r"<\1\2>", text)
    try:
        return clean_html(text) == text
    except Exception:  # noqa: BLE001 - what cannot be parsed is not shown
        return False


def is_safe_svg(text, budget=None):
    """Whether an SVG output is one ``<svg>`` element that passes the policy as it is."""
    return bool(SVG_DOCUMENT.fullmatch(text)) and is_safe_html(text, budget)


def render_markdown(source, attachments=None):
    """The HTML nbconvert's templates make of a markdown cell (its markdown2html filter)."""
    if not attachments:
        return _render_plain_markdown(source)
    return MarkdownWithMath(renderer=IPythonRenderer(escape=False, attachments=attachments)).render(source)


@_remembered
def _render_plain_markdown(source):
    return MarkdownWithMath(renderer=IPythonRenderer(escape=False, attachments={})).render(source)


def _renders_safely(source, attachments, budget):
    if len(source) > MAX_CHECKED_CHARS:  # its HTML would be too long to check as well
        return False
    try:
        return is_safe_html(render_markdown(source, attachments), budget)
    except Exception:  # noqa: BLE001 - a missing attachment, or anything the renderer stops on
        return False


def as_preformatted(text):
    """Markdown that shows ``text`` literally, as preformatted text, whatever it holds."""
    return "<pre>" + html.escape(text.lstrip("\n"), quote=False) + "</pre>"


def safe_markdown(source, attachments=None, budget=None):
    """(markdown, changed): ``source`` itself if it renders safely, else bleach's cleaning, else plain text."""
    budget = budget or Budget()
    if PREFORMATTED.fullmatch(source) or _renders_safely(source, attachments, budget):
        return source, False
    cleaned = None
    if budget.take(source):
        try:
            cleaned = clean_html(source)
        except Exception:  # noqa: BLE001 - shown as plain text below
            cleaned = None
    if cleaned is not None and _renders_safely(cleaned, attachments, budget):
        return cleaned, True
    return as_preformatted(source), True


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
        elif mimetype == "text/markdown" and text is not None and _renders_safely(text, None, budget):
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
    if budget.take(source):
        try:
            return clean_html(source)
        except Exception:  # noqa: BLE001 - escaped below
            pass
    return html.escape(source, quote=False)


def sanitize_cell(cell, budget=None):
    """Make one cell (a dict, changed in place) safe to show; return whether anything changed."""
    budget = budget or Budget()
    before = copy.deepcopy(cell)
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
    """Make a notebook (nbformat 4, as a dict or NotebookNode, changed in place) safe to show; return how many cells changed."""
    metadata = nb.get("metadata")
    if isinstance(metadata, dict):
        metadata.pop("widgets", None)  # nbconvert embeds widget state, and then the widget scripts
    cells = nb.get("cells") if isinstance(nb.get("cells"), list) else []
    budget = Budget()
    return sum(sanitize_cell(cell, budget) for cell in cells if isinstance(cell, dict))


class SanitizeMarkup(Preprocessor):
    """Feedback shows a learner's markdown, raw cells and outputs only as inert markup (``sanitize_notebook``)."""

    def preprocess(self, nb, resources):
        changed = sanitize_notebook(nb)
        if changed:
            self.log.info("Made the markup of %d cell(s) safe to show", changed)
        return nb, resources
