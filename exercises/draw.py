"""Draw a computation graph: a picture of the list of ``(name, op, inputs)`` nodes you work with.

    from exercises.draw import draw
    graph = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
    draw(graph)                                                   # the shape alone
    draw(graph, values={"a": 2, "b": 3, "c": 1, "p": 6, "z": 7})  # with each value
    draw(graph, values, grads=backward(graph, values))            # and each gradient dL/d(name)

The leaves stand in the left column and every node one column to the right of its
furthest input, so the arrows run left to right in the order the forward pass
computes. An input read by a node further right runs through the columns in
between in a lane of its own, so no arrow passes through a box; the same graph
gives the same picture on every run (exercises/layout.py places everything). Each
box shows the name, its op and, when given, its value and its gradient; an arrow
read twice (``mul x x``) says so with "x2".

``draw`` returns the matplotlib figure. In a notebook the figure shows as the
cell's result; elsewhere save it with ``fig.savefig("graph.png")``. It needs no
display: with none, matplotlib draws with its Agg backend. Pass ``ax=`` to draw
into axes of your own.
"""

import functools
import io
import math
import os
import sys

from exercises.layout import columns, layout

LEAF = "leaf"
NODE_COLOUR, LEAF_COLOUR, EDGE_COLOUR = "#dbeafe", "#f3f4f6", "#6b7280"
# Sizes in inches: a box fits its longest line of text at FONT_SIZE points (CHAR_W per character).
FONT_SIZE, CHAR_W, LINE_H, PAD, MIN_BOX_W = 10, 0.09, 0.19, 0.12, 1.0
GAP_X, GAP_Y, MARGIN, TITLE_H, HEAD = 0.55, 0.3, 0.12, 0.35, 0.11


@functools.lru_cache(maxsize=None)
def _figure_class():
    """A matplotlib Figure that a notebook shows as a PNG image when a cell returns it.

    The figure is not one of pyplot's, so nothing else shows it a second time, and
    drawing it needs no display.
    """
    from matplotlib.figure import Figure

    class GraphFigure(Figure):
        def _repr_png_(self):
            buffer = io.BytesIO()
            self.savefig(buffer, format="png", dpi=96)
            return buffer.getvalue()

    return GraphFigure


def _headless():
    """Use the Agg backend when there is no display to draw on (and no backend was chosen)."""
    import matplotlib

    no_display = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if no_display and not os.environ.get("MPLBACKEND") and "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")


def _number(value):
    """A value or gradient as short text ('?' for anything that is not a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "?"
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return f"{value:.4g}"


def as_networkx(graph):
    """A networkx DiGraph of ``graph``: one vertex per name (``op``: its op, or 'leaf'), one edge per input
    (``times``: how often the node reads it), and ``layer``: leaves 0, a node one more than its furthest input."""
    import networkx as nx

    g = nx.DiGraph()
    nodes = {name for name, _op, _inputs in graph}
    for node, op, reads in graph:
        for source in reads:
            if source not in g:
                g.add_node(source, op=LEAF if source not in nodes else "")
            if g.has_edge(source, node):
                g.edges[source, node]["times"] += 1
            else:
                g.add_edge(source, node, times=1)
        g.add_node(node, op=op)
    for generation, names in enumerate(nx.topological_generations(g)):
        for name in names:
            g.nodes[name]["layer"] = generation
    return g


def label(name, op, values=None, grads=None):
    """The text of one box: the name and op, then the value and gradient when known."""
    lines = [name if op == LEAF else f"{name} = {op}"]
    if values is not None and name in values:
        lines.append(f"value {_number(values[name])}")
    if grads is not None and name in grads:
        lines.append(f"grad {_number(grads[name])}")
    return "\n".join(lines)


def draw(graph, values=None, grads=None, *, ax=None, title=None, size=None):
    """Draw ``graph`` left to right; return the matplotlib figure.

    ``values``: {name: value}, as evaluate returns it; ``grads``: {name: dL/d(name)}, as
    backward returns it. Either may be left out. ``size``: the figure's (width, height) in
    inches (default: from the graph's shape). The picture depends on the graph alone: the
    same graph gives the same picture on every run, and no arrow passes through a box.
    """
    from matplotlib.patches import FancyBboxPatch, Polygon

    _headless()
    graph = [(name, op, list(inputs)) for name, op, inputs in graph]
    ops = {name: op for name, op, _inputs in graph}
    if not ops:
        raise ValueError("the graph has no nodes to draw")
    labels = {name: label(name, ops.get(name, LEAF), values, grads) for name in columns(graph)}
    box_w = max(MIN_BOX_W, max(len(line) for text in labels.values() for line in text.split("\n")) * CHAR_W + 2 * PAD)
    box_h = max(text.count("\n") + 1 for text in labels.values()) * LINE_H + 2 * PAD
    placed = layout(graph, box_w, box_h, GAP_X, GAP_Y, margin=MARGIN)
    top = TITLE_H if title else 0.0  # room above the boxes for the title
    width, height = placed.width, placed.height + top
    if ax is None:
        fig = _figure_class()(figsize=size or (width, height))
        ax = fig.add_axes((0, 0, 1, 1))
    else:
        fig = ax.figure
    for _source, _target, times, points in placed.edges:
        points = [(x, y + top) for x, y in points]
        (x1, y1), (x2, y2) = points[-2], points[-1]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        base = (x2 - HEAD * ux, y2 - HEAD * uy)
        xs, ys = zip(*points[:-1], base)
        ax.plot(xs, ys, color=EDGE_COLOUR, linewidth=1.4, solid_capstyle="butt", zorder=1)
        ax.add_patch(
            Polygon(
                [
                    (x2, y2),
                    (base[0] - HEAD / 2.5 * uy, base[1] + HEAD / 2.5 * ux),
                    (base[0] + HEAD / 2.5 * uy, base[1] - HEAD / 2.5 * ux),
                ],
                closed=True,
                facecolor=EDGE_COLOUR,
                edgecolor="none",
                zorder=1,
            )
        )
        if times > 1:  # x * x: one arrow, read twice; said in the gap, where the arrow slants
            (x1, y1), (x2, y2) = points[-3], points[-2]
            ax.text(
                (x1 + x2) / 2,
                (y1 + y2) / 2,
                f"x{times}",
                ha="center",
                va="center",
                fontsize=9,
                zorder=4,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
            )
    for name, (x, y) in placed.boxes.items():
        colour = NODE_COLOUR if name in ops else LEAF_COLOUR
        ax.add_patch(
            FancyBboxPatch(
                (x, y + top),
                box_w,
                box_h,
                boxstyle=f"round,pad=0,rounding_size={PAD / 2}",
                facecolor=colour,
                edgecolor="#374151",
                linewidth=1.0,
                zorder=2,
            )
        )
        ax.text(
            x + box_w / 2, y + top + box_h / 2, labels[name], ha="center", va="center", fontsize=FONT_SIZE, zorder=3
        )
    if title:
        ax.text(width / 2, TITLE_H / 2, title, ha="center", va="center", fontsize=FONT_SIZE + 1)
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # y grows downwards, as in the layout
    ax.set_aspect("equal")
    ax.set_axis_off()
    return fig
