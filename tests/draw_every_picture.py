"""Draw every graph the lessons draw, and print where each box, arrow and text of each picture landed, as JSON.

    PYTHONHASHSEED=4 python -m tests.draw_every_picture

tests/test_pictures.py runs it under several hash seeds: the pictures must be the same
under every seed, and no arrow may pass through a box. The graphs are those of every
``draw`` call the source notebooks make (each lesson's code cells run in order, in the
namespace of its module, with the reference's code, as an instructor runs them) and
every graph of graphcourse/examples.py. Each is drawn twice: by the lessons' ``draw``
(matplotlib; the geometry is read back from the figure's artists) and by the feedback's
SVG picture (graphcourse/picture.py; read back from the SVG).
"""

import contextlib
import copy
import io
import json
import sys
import xml.etree.ElementTree as ET

from autograder.course.lessons import LESSONS, grade_cells

SVG = "{http://www.w3.org/2000/svg}"


def lesson_drawings():
    """[(where, graph, values, grads, title)] of every draw call the source notebooks make, in order."""
    import exercises.draw

    real, calls = exercises.draw.draw, []
    table = grade_cells()
    spaces = {}  # module: the namespace its lessons' cells run in (lessons 1 and 2 share graph's)
    try:
        for lesson in LESSONS:
            nb = json.loads(lesson.notebook_path().read_text(encoding="utf-8"))
            module = min(c.module for c in table.values() if c.assignment == lesson.assignment and c.module)
            space = spaces.setdefault(module, {})
            for index, cell in enumerate(nb["cells"]):
                if cell["cell_type"] != "code":
                    continue
                where = f"{lesson.notebook} cell {index}"

                def recording(graph, values=None, grads=None, *, where=where, **options):
                    calls.append(
                        (
                            where,
                            copy.deepcopy([list(n) for n in graph]),
                            copy.deepcopy(values),
                            copy.deepcopy(grads),
                            options.get("title"),
                        )
                    )
                    return real(graph, values, grads, **options)

                exercises.draw.draw = recording
                with contextlib.redirect_stdout(io.StringIO()):  # what the cells print is not the picture's
                    exec(compile("".join(cell["source"]), where, "exec"), space)
    finally:
        exercises.draw.draw = real
    return calls


def example_drawings():
    """[(where, graph, values, None, None)] of every graph in graphcourse/examples.py, at its leaves when given."""
    from graphcourse import examples
    from solutions.graph import evaluate

    found = []
    for name in sorted(vars(examples)):
        graph = getattr(examples, name)
        if not (isinstance(graph, list) and graph and all(isinstance(n, tuple) and len(n) == 3 for n in graph)):
            continue
        leaves = getattr(examples, name.rsplit("_", 1)[0] + "_LEAVES", None)
        values = evaluate(graph, leaves) if isinstance(leaves, dict) else None
        found.append((f"graphcourse/examples.py {name}", graph, values, None, None))
    return found


def figure_geometry(fig):
    """Boxes {name: [x, y, w, h]}, arrows [[points]] (the line, then the head's tip) and texts that overflow their
    box."""
    from matplotlib.patches import FancyBboxPatch, Polygon

    fig.canvas.draw()
    (ax,) = fig.axes
    boxes, extents = {}, {}
    rects = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    for text in ax.texts:
        x, y = text.get_position()
        inside = [
            r
            for r in rects
            if r.get_x() <= x <= r.get_x() + r.get_width() and r.get_y() <= y <= r.get_y() + r.get_height()
        ]
        if len(inside) == 1 and text.get_text() and abs(x - (inside[0].get_x() + inside[0].get_width() / 2)) < 1e-9:
            name = text.get_text().split("\n")[0].split(" = ")[0]
            rect = inside[0]
            boxes[name] = [rect.get_x(), rect.get_y(), rect.get_width(), rect.get_height()]
            extents[name] = (text.get_window_extent(), rect.get_window_extent())
    overflow = [
        name
        for name, (t, r) in extents.items()
        if not (r.x0 <= t.x0 and t.x1 <= r.x1 and r.y0 <= t.y0 and t.y1 <= r.y1)
    ]
    heads = [p.get_xy().tolist() for p in ax.patches if isinstance(p, Polygon) and not isinstance(p, FancyBboxPatch)]
    lines = [line.get_xydata().tolist() for line in ax.lines]
    return {"boxes": boxes, "lines": lines, "heads": heads, "overflow": overflow}


def svg_geometry(text):
    """Boxes {name: [x, y, w, h]} and arrows [[points]] of an SVG picture (graphcourse/picture.py)."""
    root = ET.fromstring(text)
    boxes = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class", "").startswith("node"):
            rect = group.find(f"{SVG}rect")
            boxes[group.find(f"{SVG}title").text] = [float(rect.get(k)) for k in ("x", "y", "width", "height")]
    lines = [
        [[float(v) for v in point.split(",")] for point in line.get("points").split()]
        for line in root.iter(f"{SVG}polyline")
    ]
    heads = []
    for path in root.iter(f"{SVG}path"):
        numbers = [float(v) for v in path.get("d").replace("M", " ").replace("L", " ").replace("Z", " ").split()]
        heads.append([numbers[i : i + 2] for i in range(0, len(numbers), 2)])
    return {"boxes": boxes, "lines": lines, "heads": heads, "overflow": []}


def main():
    from exercises.draw import draw
    from graphcourse import picture

    pictures = []
    for where, graph, values, grads, title in [*lesson_drawings(), *example_drawings()]:
        edges = sorted({(i, name) for name, _op, inputs in graph for i in inputs})
        drawn = {"where": where, "edges": edges, "draw": figure_geometry(draw(graph, values, grads, title=title))}
        svg = picture.drawing(graph, values, grads, title=title or "")
        if svg:
            drawn["svg"] = svg_geometry(svg)
        pictures.append(drawn)
    json.dump(pictures, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
