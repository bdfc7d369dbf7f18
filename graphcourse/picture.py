"""A picture of the graph a backward check failed on, as inline SVG written by hand.

The feedback page shows it under the grade cell: the graph laid out left to right
in layers (leaves first, each node one column right of its furthest input), every
name in a box with its value, the gradient the reference expects and the one the
learner's ``backward`` returned, and the first node whose gradient is wrong, in
sweep order, drawn in red.

Only small graphs get a picture (``MAX_NAMES``). The SVG uses a small set of
elements and presentation attributes, written the way an HTML parser writes them
back (every element closed, every attribute quoted), so it passes the feedback
page's markup policy (autograder/nbgrader/sanitize_markup.py) unchanged. Every text
is escaped, and every number is formatted from a checked int or float.
"""

import html
import math

from graphcourse.judges import reference_answer

MAX_NAMES = 12  # leaves and nodes together: a larger graph gets no picture
MAX_LABEL = 14  # characters of a name shown in a box
BOX_W, BOX_H = 150, 72
GAP_X, GAP_Y, MARGIN = 60, 22, 16
LINE = 16  # the height of a line of text in a box
LANE = 12  # the room above the boxes for each edge that skips a column
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


def layers(graph):
    """{name: column}: leaves in column 0, a node one column right of its furthest input."""
    leaves, _nodes = names_of(graph)
    column = {leaf: 0 for leaf in leaves}
    for name, _op, inputs in graph:
        column[name] = 1 + max((column.get(i, 0) for i in inputs), default=0)
    return column


def long_edges(graph):
    """The (input, node) pairs that skip a column: they are routed above the boxes."""
    column = layers(graph)
    pairs = [(i, name) for name, _op, inputs in graph for i in dict.fromkeys(inputs) if column[name] - column[i] > 1]
    return pairs


def layout(graph):
    """{name: (x, y)} of each box's top-left corner, and the picture's width and height.

    Room is left above the boxes for one lane per edge that skips a column.
    """
    column = layers(graph)
    leaves, nodes = names_of(graph)
    top = MARGIN + LANE * len(long_edges(graph))
    rows = {}
    where = {}
    for name in leaves + nodes:
        row = rows.get(column[name], 0)
        rows[column[name]] = row + 1
        where[name] = (MARGIN + column[name] * (BOX_W + GAP_X), top + row * (BOX_H + GAP_Y))
    width = 2 * MARGIN + (max(column.values()) + 1) * BOX_W + max(column.values()) * GAP_X
    height = top + MARGIN + max(rows.values()) * (BOX_H + GAP_Y) - GAP_Y
    return where, width, height


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


def svg(graph, values, expected, got, first_wrong, title=""):
    """The SVG text of ``graph`` with each name's value, expected and returned gradient; ``first_wrong`` in red.

    ``values``, ``expected`` and ``got`` map names to numbers (a name may be missing from any of them).
    """
    where, width, height = layout(graph)
    legend = height + 4
    height += 2 * LINE + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="12" role="img">',
        f"<title>{text(title or 'the graph of a failed check', 300)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"></rect>',
    ]
    lanes = {pair: MARGIN + LANE * k for k, pair in enumerate(long_edges(graph))}
    for name, _op, inputs in graph:
        tx, ty = where[name]
        distinct = list(dict.fromkeys(inputs))
        for k, source in enumerate(distinct):
            sx, sy = where[source]
            start, end = (sx + BOX_W, sy + BOX_H / 2), (tx, ty + BOX_H * (k + 1) / (len(distinct) + 1))
            lane = lanes.get((source, name))
            if lane is None:
                route = [start, end]
            else:  # over the columns it skips, in a lane of its own above the boxes
                route = [start, (start[0] + GAP_X / 2, lane), (end[0] - GAP_X / 2, lane), end]
            parts.append(_arrow(route))
            times = inputs.count(source)
            if times > 1:  # x * x: one arrow, read twice
                (ax, ay), (bx, by) = route[-2], route[-1]
                parts.append(f'<text x="{(ax + bx) / 2:.1f}" y="{(ay + by) / 2 - 4:.1f}" text-anchor="middle" '
                             f'fill="{STROKE}">×{times}</text>')
    ops = {name: op for name, op, _inputs in graph}
    leaves, nodes = names_of(graph)
    for name in leaves + nodes:
        x, y = where[name]
        want, have = expected.get(name), got.get(name) if name in got else "missing"
        lines = [
            (f"value {number(values.get(name))}", STROKE),
            (f"expected grad {number(want)}", "#1a7f37"),
            (f"your grad {number(have) if have != 'missing' else '(none)'}", WRONG_STROKE if name == first_wrong else STROKE),
        ]
        parts.append(_box(name, ops.get(name, ""), x, y, lines, name == first_wrong))
    parts.append(
        f'<text x="{MARGIN}" y="{legend + LINE}" fill="{WRONG_STROKE}">red: the first node whose gradient is wrong, '
        f"in the order the backward sweep visits them ({text(first_wrong)})</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


def _number_dict(value):
    if type(value) is not dict:
        return None
    return {k: v for k, v in value.items() if type(k) is str and type(v) in (int, float)}


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
    expected = _number_dict(reference_answer(case)) or {}
    output = case.kwargs.get("output") or nodes[-1]
    title = f"{check_id + ': ' if check_id else ''}backward on a graph whose output is {output}; " \
            f"first wrong gradient: {failure.first_wrong}"
    return svg(graph, _number_dict(values) or {}, expected, got, failure.first_wrong, title)
