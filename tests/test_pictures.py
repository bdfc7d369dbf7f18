"""Pictures of graphs: the learners' drawing helper, and the SVG of a failed check's graph in the feedback.

The helper (exercises/draw.py) must draw every worked example without a display. The
feedback picture (graphcourse/picture.py) must name the right node, escape
every text, pass the markup policy unchanged, and change no score.
"""

import copy
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import nbformat
import pytest
from nbgrader import utils

from autograder.course.lessons import LESSONS
from autograder.grading import cellgrades, feedback
from autograder.grading.submission import Chunk
from autograder.nbgrader.hidden_checks import cell_outputs
from autograder.nbgrader.sanitize.notebook import sanitize_notebook
from autograder.nbgrader.sanitize.policy import is_safe_svg
from exercises.layout import columns as shared_columns, layout as shared_layout
from graphcourse import picture
from graphcourse.examples import ABC_LEAVES, ABC_SQUARED, DIAMOND, DIAMOND_LEAVES
from solutions import graph as reference
from tests.conftest import ROOT
from tests.test_hostile_handins import PageScan, assert_inert, classic_page

SVG = "{http://www.w3.org/2000/svg}"
ZOO_ENTRY = ROOT / "graphcourse" / "zoo" / "buggy_assign_fan_out.py"

WORKED_EXAMPLES = {
    "lesson 1: z = a*b + c": (ABC_SQUARED[:2], ABC_LEAVES),
    "lesson 2: the diamond": (DIAMOND, DIAMOND_LEAVES),
    "lesson 2: L = (a*b + c)**2": (ABC_SQUARED, ABC_LEAVES),
}


# ---------------------------------------------------------------- the learners' helper


@pytest.mark.parametrize("name", sorted(WORKED_EXAMPLES))
def test_draw_returns_a_figure_for_each_worked_example(name):
    from matplotlib.figure import Figure

    from exercises.draw import draw

    graph, leaves = WORKED_EXAMPLES[name]
    values = reference.evaluate(graph, leaves)
    for fig in (draw(graph), draw(graph, values), draw(graph, values, reference.backward(graph, values), title=name)):
        assert isinstance(fig, Figure)
        texts = [t.get_text() for t in fig.axes[0].texts]
        assert all(any(t.startswith(n) for t in texts) for n in values), texts
        assert fig._repr_png_().startswith(b"\x89PNG"), "a notebook shows the returned figure as a PNG"
    grads = reference.backward(graph, values)
    texts = [t.get_text() for t in draw(graph, values, grads).axes[0].texts]
    assert any(f"grad {grads[graph[0][0]]:.4g}" in t for t in texts)


def test_draw_labels_and_marks_an_input_read_twice():
    from exercises.draw import as_networkx, label

    g = as_networkx(DIAMOND)
    assert {n: d["layer"] for n, d in g.nodes(data=True)} == {"x": 0, "a": 1, "t": 2, "L": 3}
    assert g.edges["x", "a"]["times"] == 2
    assert label("t", "add", {"t": 8}, {"t": 16.0}) == "t = add\nvalue 8\ngrad 16"
    assert label("x", "leaf", {"x": True}) == "x\nvalue ?"


def test_draw_works_headless_in_a_fresh_process():
    """No display and no backend chosen: the helper draws with Agg and saves a PNG."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND")}
    code = (
        "import io, matplotlib; from exercises.draw import draw; from graphcourse.examples import DIAMOND;"
        "fig = draw(DIAMOND); buf = io.BytesIO(); fig.savefig(buf, format='png');"
        "print(matplotlib.get_backend(), buf.getvalue()[:4] == b'\\x89PNG')"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["agg", "True"] or done.stdout.split() == ["Agg", "True"], done.stdout


# ---------------------------------------------------------------- the feedback's picture


@pytest.fixture(scope="module")
def fan_out_record():
    """The record of the zoo's assign-instead-of-add backward, graded as a lesson 2 notebook's function cell."""
    chunks = [Chunk("backward_sweep.ipynb cell 9", ZOO_ENTRY.read_text(encoding="utf-8"))]
    return cellgrades.grade_record(chunks, {"backward_correct": 40.0}, origin="backward_sweep.ipynb")


def parse(svg):
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def assert_harmless(root):
    for element in root.iter():
        tag = element.tag.replace(SVG, "")
        assert tag not in ("script", "foreignObject", "a", "image", "use", "style"), tag
        for name in element.attrib:
            assert not name.lower().startswith("on") and "href" not in name and name != "style", name


def test_a_failed_backward_check_gets_a_picture_with_the_first_wrong_node_in_red(fan_out_record):
    cell = fan_out_record["cells"]["backward_correct"]
    assert 0 < cell["score"] < cell["max"]
    assert 1 <= len(cell["pictures"]) <= cellgrades.MAX_PICTURES
    root = parse(cell["pictures"][0])
    assert_harmless(root)
    assert "fan_out_accumulation/worked_example" in root.find(f"{SVG}title").text
    (wrong,) = [g for g in root.iter(f"{SVG}g") if "first-wrong" in g.get("class", "")]
    assert wrong.find(f"{SVG}title").text == "t"  # the diamond: t gets 8 instead of 16
    texts = ["".join(t.itertext()) for t in wrong.iter(f"{SVG}text")]
    assert texts == ["t = add", "value 8", "expected grad 16", "your grad 8"]
    assert wrong.find(f"{SVG}rect").get("stroke") == picture.WRONG_STROKE
    names = {g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("node")}
    assert names == {"x", "a", "t", "y"}  # the check's diamond names its output y


def test_every_text_is_escaped():
    hostile = '<script>alert("x")</script>'
    graph = [(hostile, "mul", ["x", "x"]), ("L", "add", [hostile, "y & z"])]
    values = {"x": 2, "y & z": 1, hostile: 4, "L": 5}
    case = SimpleNamespace(fn="backward", args=[graph, values], kwargs={}, label="")
    failure = SimpleNamespace(case=case, first_wrong=hostile, got={"x": 1.0, "y & z": True, hostile: 2.0, "L": 1})
    svg = picture.of_failure(failure, check_id="<b>id</b>")
    assert svg and "<script" not in svg and "<b>" not in svg and "&lt;script" in svg
    root = parse(svg)
    assert_harmless(root)
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "your grad (none)" in texts, "a bool is not a number: the entry is shown as missing"
    assert is_safe_svg(svg)


def test_numbers_are_formatted_from_checked_values():
    assert picture.number(128) == "128" and picture.number(0.1 + 0.2) == "0.3"
    assert picture.number(float("nan")) == "nan" and picture.number(-float("inf")) == "-inf"
    assert picture.number(10**400) == "inf"
    assert [picture.number(v) for v in (True, "1", None, [1])] == ["?"] * 4


def test_only_small_backward_failures_get_a_picture():
    chain = [(f"n{i}", "neg", [f"n{i - 1}"]) for i in range(1, picture.MAX_NAMES + 1)]
    values = reference.evaluate(chain, {"n0": 1.0})
    case = SimpleNamespace(fn="backward", args=[chain, values], kwargs={}, label="")
    assert picture.of_failure(SimpleNamespace(case=case, first_wrong="n1", got=values)) == ""
    small = SimpleNamespace(
        fn="backward", args=[chain[:3], {k: values[k] for k in ("n0", "n1", "n2", "n3")}], kwargs={}, label=""
    )
    assert picture.of_failure(SimpleNamespace(case=small, first_wrong="n1", got={}))
    assert picture.of_failure(SimpleNamespace(case=small, first_wrong="", got={})) == ""
    assert picture.of_failure(SimpleNamespace(case=small, first_wrong="n1", got=None)) == ""
    evaluate = SimpleNamespace(fn="evaluate", args=small.args, kwargs={}, label="")
    assert picture.of_failure(SimpleNamespace(case=evaluate, first_wrong="n1", got={})) == ""


# ---------------------------------------------------------------- pictures that never mislead

HASH_SEEDS = (0, 4, 977)  # 4: the seed under which lesson 1's first picture once ran c's arrow through p


def enters(segment, box, eps=1e-6):
    """Whether the segment [(x1, y1), (x2, y2)] passes through the inside of ``box`` [x, y, w, h] (its edge is
    outside)."""
    (x1, y1), (x2, y2) = segment
    low, high = 0.0, 1.0  # Liang-Barsky: clip the segment to the box shrunk by eps
    x0, y0, w, h = box
    for p, q in (
        (x1 - x2, x1 - x0 - eps),
        (x2 - x1, x0 + w - eps - x1),
        (y1 - y2, y1 - y0 - eps),
        (y2 - y1, y0 + h - eps - y1),
    ):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
    return low < high


def on_side(point, box, side, eps=1e-6):
    x, y = point
    x0, y0, w, h = box
    edge = x0 + w if side == "right" else x0
    return abs(x - edge) < eps and y0 - eps <= y <= y0 + h + eps


def misleading(picture, edges):
    """What is wrong with a picture's geometry: arrows through boxes, arrows that are not the graph's, text outside its
    box."""
    boxes, problems, found = picture["boxes"], [], []
    names = {name for edge in edges for name in edge}
    problems += [f"no box for {name!r}" for name in sorted(names - set(boxes))]
    problems += [f"the text of {name!r} overflows its box" for name in picture["overflow"]]
    assert len(picture["lines"]) == len(picture["heads"])
    for line, head in zip(picture["lines"], picture["heads"]):
        tip = head[0]
        sources = [n for n, box in boxes.items() if on_side(line[0], box, "right")]
        targets = [n for n, box in boxes.items() if on_side(tip, box, "left")]
        if len(sources) != 1 or len(targets) != 1:
            problems.append(f"an arrow from {line[0]} to {tip} does not run from one box's right side to one's left")
            continue
        found.append((sources[0], targets[0]))
        segments = list(zip(line, [*line[1:], tip])) + list(zip(head, [*head[1:], head[0]]))
        for name, box in boxes.items():
            if any(enters(segment, box) for segment in segments):
                problems.append(f"the arrow {sources[0]} -> {targets[0]} passes through the box of {name!r}")
    if sorted(found) != sorted(map(tuple, edges)):
        problems.append(f"the arrows drawn {sorted(found)} are not the graph's edges {sorted(map(tuple, edges))}")
    return problems


def test_geometry_checks_catch_an_arrow_through_a_box():
    """The checks below can fail: c's straight arrow to z across p's box, as a hash seed once drew it, is caught."""
    boxes = {"a": [0, 0, 2, 1], "b": [0, 2, 2, 1], "c": [0, 4, 2, 1], "p": [3, 2, 2, 1], "z": [6, 4, 2, 1]}
    straight = {
        "boxes": boxes,
        "overflow": [],
        "lines": [[[2, 4.5], [4, 2.5], [5.9, 4.4]]],
        "heads": [[[6, 4.5], [5.9, 4.4], [5.9, 4.6]]],
    }
    assert misleading(straight, [("c", "z")]) == ["the arrow c -> z passes through the box of 'p'"]
    around = dict(
        straight, lines=[[[2, 4.5], [3, 4.5], [5, 4.5], [5.9, 4.5]]], heads=[[[6, 4.5], [5.9, 4.45], [5.9, 4.55]]]
    )
    assert misleading(around, [("c", "z")]) == []
    assert misleading(around, [("c", "z"), ("p", "z")])[-1].startswith("the arrows drawn")


def test_lesson_one_keeps_c_out_of_p():
    """z = a*b + c: c's arrow to z runs through a lane beside p, not across p's box, and the rows follow the list."""
    placed = shared_layout(ABC_SQUARED[:2], 150, 72, 60, 22)
    assert [
        name for name, _xy in sorted(placed.boxes.items(), key=lambda item: item[1][::-1]) if placed.boxes[name][0] == 0
    ] == ["a", "b", "c"]
    boxes = {name: [x, y, 150, 72] for name, (x, y) in placed.boxes.items()}
    for source, target, _times, points in placed.edges:
        for segment in zip(points, points[1:]):
            assert not any(enters(segment, box) for box in boxes.values()), (source, target, segment)
    (c_to_z,) = [points for source, target, _t, points in placed.edges if (source, target) == ("c", "z")]
    px, py = placed.boxes["p"]
    across = [y for (x1, y), (x2, y2) in zip(c_to_z, c_to_z[1:]) if (x1, x2) == (px, px + 150) and y == y2]
    assert across and not py <= across[0] <= py + 72, "across p's column, level, in a lane of its own"


def test_layout_refuses_what_no_picture_can_show():
    with pytest.raises(ValueError, match="cycle"):
        shared_layout([("a", "neg", ["b"]), ("b", "neg", ["a"])], 1, 1, 1, 1)
    with pytest.raises(ValueError, match="defined twice"):
        shared_layout([("a", "neg", ["x"]), ("a", "neg", ["y"])], 1, 1, 1, 1)
    chain = [(f"n{i}", "neg", [f"n{i - 1}"]) for i in range(1, 3001)]
    assert shared_columns(chain)["n3000"] == 3000, "a long chain needs no deep recursion"
    assert picture.drawing([("a", "neg", ["b"]), ("b", "neg", ["a"])]) == ""


def test_the_feedback_draws_a_lesson_picture_as_draw_places_it():
    """picture.drawing: the SVG of draw(graph, values, grads), in draw's places, that the markup policy keeps."""
    graph, leaves = WORKED_EXAMPLES["lesson 2: L = (a*b + c)**2"]
    values = reference.evaluate(graph, leaves)
    grads = reference.backward(graph, values)
    svg = picture.drawing(graph, values, grads, title="<L>")
    root = parse(svg)
    assert_harmless(root)
    assert is_safe_svg(svg) and "&lt;L&gt;" in svg
    groups = {g.find(f"{SVG}title").text: g for g in root.iter(f"{SVG}g") if g.get("class") == "node"}
    assert ["".join(t.itertext()) for t in groups["p"].iter(f"{SVG}text")] == ["p = mul", "value 6", "grad 14"]
    placed = picture.placed(graph)
    assert {
        n: (float(g.find(f"{SVG}rect").get("x")), float(g.find(f"{SVG}rect").get("y"))) for n, g in groups.items()
    } == {n: (float(x), float(y)) for n, (x, y) in placed.boxes.items()}
    assert ["".join(t.itertext()) for t in parse(picture.drawing(graph)).iter(f"{SVG}text")][:1] == ["a (leaf)"]
    assert picture.drawing([]) == "" and picture.drawing([("a", "neg", ["a"])]) == ""


@pytest.fixture(scope="module")
def every_picture():
    """{hash seed: the geometry of every picture the lessons draw}, each seed in its own process."""
    drawn = {}
    for seed in HASH_SEEDS:
        env = dict(os.environ, PYTHONHASHSEED=str(seed), MPLBACKEND="Agg")
        done = subprocess.run(
            [sys.executable, "-m", "tests.draw_every_picture"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        drawn[seed] = json.loads(done.stdout)
    return drawn


@pytest.mark.slow
def test_every_lesson_picture_is_the_same_under_every_hash_seed(every_picture):
    first, *others = HASH_SEEDS
    where = [p["where"] for p in every_picture[first]]
    assert sum(w.startswith("graphcourse/examples.py") for w in where) >= 3
    assert {w.split(" cell ")[0] for w in where if " cell " in w} == {
        lesson.notebook for lesson in LESSONS if "draw(" in lesson.notebook_path().read_text()
    }
    for seed in others:
        assert every_picture[seed] == every_picture[first], f"PYTHONHASHSEED={seed} draws another picture"


@pytest.mark.slow
def test_no_arrow_of_any_lesson_picture_passes_through_a_box(every_picture):
    problems = []
    for seed, pictures in every_picture.items():
        for drawn in pictures:
            assert "svg" in drawn or len({n for e in drawn["edges"] for n in e}) > picture.MAX_NAMES, drawn["where"]
            for kind in ("draw", "svg"):
                if kind in drawn:
                    problems += [
                        f"seed {seed}, {drawn['where']} ({kind}): {p}" for p in misleading(drawn[kind], drawn["edges"])
                    ]
    assert problems == []


# ---------------------------------------------------------------- in the feedback page


def grade_cell(outputs, points=40):
    return nbformat.v4.new_code_cell(
        source="# visible tests",
        outputs=outputs,
        metadata={
            "nbgrader": {
                "grade": True,
                "solution": False,
                "locked": True,
                "grade_id": "backward_correct",
                "points": points,
                "schema_version": 3,
            }
        },
    )


def test_pictures_change_no_score(fan_out_record):
    """nbgrader reads the same score with and without the pictures: partial, none and full credit."""
    partial = fan_out_record["cells"]["backward_correct"]
    outcomes = [partial, dict(partial, score=0.0), dict(partial, score=40.0, errors=[], summary="all passed")]
    for outcome in outcomes:
        with_pictures = cell_outputs(outcome)
        without = cell_outputs(dict(outcome, pictures=[]))
        assert [o for o in with_pictures if o.output_type == "display_data"] == with_pictures[len(without) :]
        assert utils.determine_grade(grade_cell(with_pictures)) == utils.determine_grade(grade_cell(without))
    assert utils.determine_grade(grade_cell(cell_outputs(partial)))[0] == partial["score"]
    assert any(o.output_type == "display_data" and "image/svg+xml" in o.data for o in cell_outputs(partial))


def test_the_picture_survives_sanitizing_and_the_page_stays_inert(fan_out_record):
    nb = nbformat.v4.new_notebook(cells=[grade_cell(cell_outputs(fan_out_record["cells"]["backward_correct"]))])
    before = copy.deepcopy(nb)
    assert sanitize_notebook(nb) == 0
    before.cells[0]["id"] = "cell-0"  # the one change: every cell's id is the kit's
    assert nb == before
    page = classic_page(nb)
    assert "data:image/svg+xml;base64," in page or "<svg" in page
    assert_inert(page, PageScan(classic_page(nbformat.v4.new_notebook())), "picture")


HOSTILE_SVG = {
    "script": '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    "onload": '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"></rect></svg>',
    "handler on a shape": '<svg xmlns="http://www.w3.org/2000/svg"><rect onclick="alert(1)"></rect></svg>',
    "href": '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><text>x</text></a></svg>',
    "xlink:href": (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<use xlink:href="https://example.org/x.svg#y"></use></svg>'
    ),
    "foreignObject": (
        '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="9" height="9">'
        '<img src="x" onerror="alert(1)"></foreignObject></svg>'
    ),
    "style with url()": '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(https://example.org/)"></rect></svg>',
    "fill with url()": '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(#g)"></rect></svg>',
    "animate": (
        '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" '
        'to="javascript:alert(1)"></animate><text>x</text></a></svg>'
    ),
    "other namespace": '<svg xmlns="http://www.w3.org/1999/xhtml"><rect></rect></svg>',
    "two documents": '<svg xmlns="http://www.w3.org/2000/svg"></svg><script>alert(1)</script><svg></svg>',
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_SVG))
def test_hostile_svg_output_is_removed_and_the_page_stays_inert(kind):
    svg = HOSTILE_SVG[kind]
    assert not is_safe_svg(svg)
    outputs = [
        nbformat.v4.new_output("display_data", data={"image/svg+xml": svg}),
        nbformat.v4.new_output("display_data", data={"text/html": svg, "text/plain": "a drawing"}),
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("draw()", outputs=outputs)])
    assert sanitize_notebook(nb) == 1
    kept = nb.cells[0].outputs
    assert "image/svg+xml" not in kept[0].data and kept[1].data == {"text/plain": "a drawing"}
    assert_inert(classic_page(nb), PageScan(classic_page(nbformat.v4.new_notebook())), kind)


def test_a_learners_plain_svg_is_kept():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><g fill="red">'
        '<circle cx="10" cy="10" r="5"></circle><text x="1" y="9">a &amp; b</text></g></svg>'
    )
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "draw()",
                outputs=[nbformat.v4.new_output("display_data", data={"image/svg+xml": svg, "text/html": svg})],
            )
        ]
    )
    assert sanitize_notebook(nb) == 0
    assert json.dumps(nb.cells[0].outputs[0].data, sort_keys=True) == json.dumps(
        {"image/svg+xml": svg, "text/html": svg}, sort_keys=True
    )


def test_the_graders_missing_drawing_helper_is_no_problem_of_the_learner():
    """The lessons' drawing cells cannot import exercises.draw in the sandbox: that is not reported."""
    errors = [
        {
            "label": "backward_sweep.ipynb cell 5",
            "type": "ModuleNotFoundError",
            "message": "No module named 'exercises'",
        },
        {"label": "backward_sweep.ipynb cell 6", "type": "ModuleNotFoundError", "message": "No module named 'numpy'"},
    ]
    lines = feedback.load_problems(SimpleNamespace(load_errors=errors, notes=[]))
    assert lines == ["backward_sweep.ipynb cell 6: ModuleNotFoundError: No module named 'numpy'"]
