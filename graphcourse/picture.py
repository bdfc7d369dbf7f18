"""A picture of the graph a backward check failed on, as inline SVG written by hand.

The feedback page shows it under the grade cell: the graph laid out as the lessons'
``draw`` lays it out (exercises/layout.py: leaves first, each node one column right of
its furthest input, no arrow through a box, the same picture on every run), every
name in a box with its value, the gradient the reference expects and the one the
learner's ``backward`` returned, and the first node whose gradient is wrong, in
sweep order, drawn in red.

Only small graphs get a picture (``MAX_NAMES``). The SVG uses a small set of
elements and presentation attributes, written the way an HTML parser writes them
back (every element closed, every attribute quoted), so it passes the feedback
page's markup policy (autograder/nbgrader/sanitize/policy.py) unchanged. Every text
is escaped, and every number is formatted from a checked int or float.
"""

import html
import math

from exercises.layout import layout as shared_layout
from graphcourse.judges import reference_answer

MAX_NAMES = 12  # leaves and nodes together: a larger graph gets no picture
MAX_LABEL = 14  # characters of a name shown in a box
BOX_W, BOX_H = 150, 72
GAP_X, GAP_Y, MARGIN = 60, 22, 16
LINE = 16  # the height of a line of text in a box
FONT = "DejaVu Sans, Arial, sans-serif"
WRONG_FILL, WRONG_STROKE = "#fde2e1", "#c0392b"
FILL, STROKE, EDGE = "#f6f8fa", "#57606a", "#8c959f"


def text(value, limit=MAX_LABEL):
    """``value`` as escaped text, cut to ``limit`` characters."""
    value = str(value)
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return html.escape(value, quote=True)


def number(value):
    """A number as short text; anything that is not an int or a float (a bool neither) is '?'."""
    if type(value) is int:
        value = float(value) if abs(value) < 1e300 else (math.inf if value > 0 else -math.inf)
    if type(value) is not float:
        return "?"
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.6g}"


def names_of(graph):
    """Every name of the graph, leaves (in order of first use) then nodes (in listed order)."""
    nodes = [name for name, _op, _inputs in graph]
    defined = set(nodes)
    leaves = {}
    for _name, _op, inputs in graph:
        leaves.update((i, None) for i in inputs if i not in defined)
    return list(leaves), nodes


def placed(graph):
    """The boxes and arrows of ``graph`` as the lessons' ``draw`` places them (exercises/layout.py), in pixels."""
    return shared_layout(graph, BOX_W, BOX_H, GAP_X, GAP_Y, margin=MARGIN)


def layout(graph):
    """{name: (x, y)} of each box's top-left corner, and the picture's width and height."""
    where = placed(graph)
    return where.boxes, where.width, where.height


def _arrow(points):
    """A line through ``points`` [(x, y), ...] with a small filled head at its last point."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - 9 * ux, y2 - 9 * uy
    left = (bx - 4 * uy, by + 4 * ux)
    right = (bx + 4 * uy, by - 4 * ux)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in [*points[:-1], (bx, by)])
    return (
        f'<polyline points="{line}" fill="none" stroke="{EDGE}" stroke-width="1.5"></polyline>'
        f'<path d="M {x2:.1f} {y2:.1f} L {left[0]:.1f} {left[1]:.1f} L {right[0]:.1f} {right[1]:.1f} Z" '
        f'fill="{EDGE}"></path>'
    )


def _box(name, op, x, y, lines, wrong):
    fill, stroke, width = (WRONG_FILL, WRONG_STROKE, 3) if wrong else (FILL, STROKE, 1)
    head = f"{text(name)} = {text(op, 8)}" if op else f"{text(name)} (leaf)"
    parts = [
        f'<g class="{"node first-wrong" if wrong else "node"}">',
        f"<title>{text(name, 200)}</title>",
        f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{width}"></rect>',
        f'<text x="{x + 8}" y="{y + LINE}" font-weight="bold">{head}</text>',
    ]
    for i, (label, colour) in enumerate(lines, start=2):
        parts.append(f'<text x="{x + 8}" y="{y + i * LINE - 2}" fill="{colour}">{label}</text>')
    parts.append("</g>")
    return "".join(parts)


def _picture(graph, lines_of, wrong, title, legend=""):
    """The SVG text of ``graph``: each box's head line, then ``lines_of(name)`` [(text, colour)]; ``wrong`` in red."""
    picture = placed(graph)
    where, width, height = picture.boxes, picture.width, picture.height
    bottom = height + 4
    height += 2 * LINE + 8 if legend else 0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="12" role="img">',
        f"<title>{text(title or 'a computation graph', 300)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"></rect>',
    ]
    for _source, _target, times, route in picture.edges:
        parts.append(_arrow(route))
        if times > 1:  # x * x: one arrow, read twice; said in the gap, where the arrow slants
            (ax, ay), (bx, by) = route[-3], route[-2]
            parts.append(
                f'<text x="{(ax + bx) / 2:.1f}" y="{(ay + by) / 2 - 4:.1f}" text-anchor="middle" '
                f'fill="{STROKE}">×{times}</text>'
            )
    ops = {name: op for name, op, _inputs in graph}
    leaves, nodes = names_of(graph)
    for name in leaves + nodes:
        x, y = where[name]
        parts.append(_box(name, ops.get(name, ""), x, y, lines_of(name), name == wrong))
    if legend:
        parts.append(f'<text x="{MARGIN}" y="{bottom + LINE}" fill="{WRONG_STROKE}">{legend}</text>')
    parts.append("</svg>")
    return "".join(parts)


def svg(graph, values, expected, got, first_wrong, title=""):
    """The SVG text of ``graph`` with each name's value, expected and returned gradient; ``first_wrong`` in red.

    ``values``, ``expected`` and ``got`` map names to numbers (a name may be missing from any of them).
    """

    def lines_of(name):
        want, have = expected.get(name), got.get(name) if name in got else "missing"
        return [
            (f"value {number(values.get(name))}", STROKE),
            (f"expected grad {number(want)}", "#1a7f37"),
            (
                f"your grad {number(have) if have != 'missing' else '(none)'}",
                WRONG_STROKE if name == first_wrong else STROKE,
            ),
        ]

    legend = (
        "red: the first node whose gradient is wrong, in the order the backward sweep visits them "
        f"({text(first_wrong)})"
    )
    return _picture(graph, lines_of, first_wrong, title or "the graph of a failed check", legend)


def drawing(graph, values=None, grads=None, title=""):
    """The SVG text of what the lessons' ``draw(graph, values, grads)`` shows, or '' for a graph it cannot draw.

    Each box holds the name and op, then the value and the gradient where ``values`` and
    ``grads`` give one; the boxes and arrows stand where ``draw`` puts them. A graph of more
    than ``MAX_NAMES`` names, an empty one, a name defined twice or a cycle gets ''.
    """
    try:
        graph = [(str(name), str(op), [str(i) for i in inputs]) for name, op, inputs in graph]
        leaves, nodes = names_of(graph)
        if not nodes or len(leaves) + len(nodes) > MAX_NAMES:
            return ""
        placed(graph)
    except (TypeError, ValueError):
        return ""
    values, grads = _number_dict(values) or {}, _number_dict(grads) or {}

    def lines_of(name):
        lines = [(f"value {number(values[name])}", STROKE)] if name in values else []
        return lines + ([(f"grad {number(grads[name])}", STROKE)] if name in grads else [])

    return _picture(graph, lines_of, None, title)


def _number_dict(value):
    if type(value) is not dict:
        return None
    return {k: v for k, v in value.items() if type(k) is str and type(v) in (int, float)}


ALT = "a picture of the graph: the first node whose gradient is wrong is drawn in red"  # the pictures' alt text


def of_failure(failure, check_id=""):
    """The SVG picture of a failed backward check, or '' when the failure has none to show.

    A picture needs the case's graph, a first wrong node and the learner's gradients, and
    a graph of at most ``MAX_NAMES`` names.
    """
    case = getattr(failure, "case", None)
    if case is None or not failure.first_wrong or getattr(case, "fn", "") != "backward":
        return ""
    graph, values = case.args[0], case.args[1] if len(case.args) > 1 else {}
    got = _number_dict(failure.got)
    if got is None or type(values) is not dict:
        return ""
    try:
        graph = [(name, op, list(inputs)) for name, op, inputs in graph]
    except (TypeError, ValueError):
        return ""
    leaves, nodes = names_of(graph)
    if len(leaves) + len(nodes) > MAX_NAMES or not nodes:
        return ""
    try:
        placed(graph)
    except ValueError:  # a name defined twice, or a cycle: no picture could be right
        return ""
    expected = _number_dict(reference_answer(case)) or {}
    output = case.kwargs.get("output") or nodes[-1]
    title = (
        f"{check_id + ': ' if check_id else ''}backward on a graph whose output is {output}; "
        f"first wrong gradient: {failure.first_wrong}"
    )
    return svg(graph, _number_dict(values) or {}, expected, got, failure.first_wrong, title)
