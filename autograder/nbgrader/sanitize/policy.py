"""The markup policy, and the budget that bounds the work of holding a notebook to it.

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
it; the worst a notebook can make the sanitizer spend is a few seconds (200 markdown
cells of 49,000 characters: under a second).
"""

import functools
import html
import re

import bleach
from pygments.token import STANDARD_TYPES

TAGS = frozenset(
    {
        "a",
        "abbr",
        "b",
        "blockquote",
        "br",
        "caption",
        "center",
        "code",
        "dd",
        "del",
        "details",
        "div",
        "dl",
        "dt",
        "em",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "img",
        "input",
        "ins",
        "kbd",
        "li",
        "mark",
        "ol",
        "p",
        "pre",
        "q",
        "s",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "u",
        "ul",
    }
)
# Drawings: shapes, lines, paths and text. Nothing that loads, links, runs, styles or animates.
SVG_TAGS = frozenset({"svg", "g", "rect", "circle", "ellipse", "line", "polyline", "path", "text", "tspan", "title"})
TAGS = TAGS | SVG_TAGS
SVG_ATTRIBUTES = frozenset(
    {
        "x",
        "y",
        "x1",
        "y1",
        "x2",
        "y2",
        "cx",
        "cy",
        "r",
        "rx",
        "ry",
        "dx",
        "dy",
        "width",
        "height",
        "d",
        "points",
        "viewBox",
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-dasharray",
        "stroke-linecap",
        "stroke-linejoin",
        "opacity",
        "font-family",
        "font-size",
        "font-weight",
        "font-style",
        "text-anchor",
        "dominant-baseline",
        "role",
        "aria-label",
    }
)
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
# How nbconvert's renderer closes void elements (<br />, <img ... />); bleach writes <br>, <img ...>.
_VOID_SLASH = re.compile(r'<(br|hr|img|input)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*/>')
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
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
)
_TAG = re.compile(r"<(/?)([a-zA-Z][^\s/>]*)[^>]*?(/?)>")


# ---------------------------------------------------------------- the policy


def _address_allowed(tag, value):
    """Whether a link (``a``) or an image (``img``) may point where ``value`` does.

    Read both as written and with character references decoded, as a browser reads the
    attribute: each reading must be allowed.
    """
    return all(
        _one_address_allowed(tag, _URL_BREAKS.sub("", _URL_EDGES.sub("", reading)))
        for reading in (value, html.unescape(value))
    )


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


def remembered(function):
    """``function`` of one string, remembered for short strings (it must be pure); longer ones are worked out each
    time."""
    remembered = functools.lru_cache(maxsize=REMEMBERED)(function)

    @functools.wraps(function)
    def wrapper(text):
        return remembered(text) if len(text) <= REMEMBERED_CHARS else function(text)

    return wrapper


def _bleach(text, policy):
    return bleach.clean(
        text,
        tags=TAGS,
        attributes=policy,
        protocols=PROTOCOLS,
        strip=False,
        strip_comments=True,
        css_sanitizer=_TextAlignOnly(),
    )


@remembered
def clean_html(text):
    """``text`` (a learner's HTML) with everything outside the policy escaped or dropped (bleach)."""
    return _bleach(text, _LEARNER_POLICY)


@remembered
def _clean_rendered(text):
    """The same for HTML nbconvert rendered from markdown: its renderer's own classes stay."""
    return _bleach(text, _RENDERED_POLICY)


@remembered
def carries_class(text):
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
                del stack[len(stack) - 1 - stack[::-1].index(tag) :]
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
        """Pay for ``text`` before working on it; False (and nothing spent) when it is too long or the budget too
        small."""
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
