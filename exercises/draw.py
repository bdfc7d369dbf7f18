"""Draw a computation graph: a picture of the list of ``(name, op, inputs)`` nodes you work with.

    from exercises.draw import draw
    graph = [("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"])]
    draw(graph)                                                   # the shape alone
    draw(graph, values={"a": 2, "b": 3, "c": 1, "p": 6, "z": 7})  # with each value
    draw(graph, values, grads=backward(graph, values))            # and each gradient dL/d(name)

The leaves stand in the left column and every node one column to the right of its
furthest input, so the arrows run left to right in the order the forward pass
computes. Each box shows the name, its op and, when given, its value and its
gradient; an arrow read twice (``mul x x``) says so with "x2".

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

LEAF = "leaf"
NODE_COLOUR, LEAF_COLOUR, EDGE_COLOUR = "#dbeafe", "#f3f4f6", "#6b7280"


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

    no_display = sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
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
    inches (default: from the graph's shape).
    """
    import networkx as nx

    _headless()
    graph = [(name, op, list(inputs)) for name, op, inputs in graph]
    g = as_networkx(graph)
    if not g:
        raise ValueError("the graph has no nodes to draw")
    layers = max(data["layer"] for _name, data in g.nodes(data=True)) + 1
    tallest = max(sum(1 for _n, d in g.nodes(data=True) if d["layer"] == k) for k in range(layers))
    if ax is None:
        fig = _figure_class()(figsize=size or (max(4.0, 2.3 * layers), max(2.2, 1.3 * tallest + 0.6)), layout="tight")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    position = nx.multipartite_layout(g, subset_key="layer", align="vertical")
    leaves = [n for n, d in g.nodes(data=True) if d["op"] == LEAF]
    nx.draw_networkx_edges(g, position, ax=ax, edge_color=EDGE_COLOUR, arrows=True, arrowsize=16, node_size=4200,
                           node_shape="s")
    twice = {(u, v): f"x{d['times']}" for u, v, d in g.edges(data=True) if d["times"] > 1}
    if twice:
        nx.draw_networkx_edge_labels(g, position, edge_labels=twice, ax=ax, font_size=9, rotate=False,
                                     bbox={"boxstyle": "round", "fc": "white", "ec": "none"})
    for name, (x, y) in position.items():
        op = g.nodes[name]["op"]
        colour = LEAF_COLOUR if name in leaves else NODE_COLOUR
        ax.text(x, y, label(name, op, values, grads), ha="center", va="center", fontsize=10, zorder=3,
                bbox={"boxstyle": "round,pad=0.5", "fc": colour, "ec": "#374151"})
    ax.set_axis_off()
    ax.margins(x=0.18, y=0.25)
    if title:
        ax.set_title(title)
    return fig
