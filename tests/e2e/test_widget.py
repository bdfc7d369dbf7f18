"""End to end, in a real browser: the clickable graph of lessons 1 and 2 in the bundle's JupyterLab, and its answers
graded.

    make e2e            # runs this file with the others of tests/e2e/

Lesson 1, as a learner: run the widget's cells of the release notebook, click a node that
is not ready (refused, naming the input with no value), then the ready nodes in order (each
computes), tick q's inputs, pick the value read twice and count the edges. Save, close,
open the notebook again in a new tab, restart the kernel and run the widget's cells: the
clicks come back from the saved notebook. Save again, and grade what JupyterLab saved with
`make grade` and with the CLI: the four questions answered by clicking score full marks,
though their answer cells still raise. Lesson 2: the diamond's sweep refuses a node whose
reader has not sent its contribution, writes the contributions on the edges, and with the
switch on shows t going wrong first and x receiving 16.

Screenshots: dist/e2e/screenshots/widget-*.png; the two of the finished widgets are the ones
docs/learners.md shows (docs/images/widget_lesson1.png and widget_lesson2.png, copied from there).
"""

import json
import re
import shutil

import pytest
from playwright.sync_api import expect

from autograder.course.lessons import LESSONS
from tests.conftest import ROOT
from tests.e2e.conftest import INSTALL_S, run, tail
from tests.e2e.test_browser import Notebook, gradebook_grades

pytestmark = pytest.mark.e2e

QUESTIONS = {
    "answer_order": "ORDER",
    "answer_inputs_of_q": "INPUTS_OF_Q",
    "answer_fan_out_node": "FAN_OUT_NODE",
    "answer_edge_count": "EDGE_COUNT",
}


def lesson(assignment):
    return next(found for found in LESSONS if found.assignment == assignment)


def widget_cells(cells, *needles):
    """The indices of the code cells to run for the widgets: the ops table, and each cell holding every needle."""
    wanted = [
        i
        for i, c in enumerate(cells)
        if c["cell_type"] == "code"
        and (
            c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "ops_table"
            or all(needle in "".join(c["source"]) for needle in needles)
        )
    ]
    assert len(wanted) >= 2, f"no widget cell holding {needles}"
    return wanted


def only(cells, indices):
    """The cells, with every code cell but ``indices`` shown as markdown, so run_each_cell runs just those."""
    return [c if i in indices else {**c, "cell_type": "markdown"} for i, c in enumerate(cells)]


def fresh(lab, bundle, found):
    """Put the release notebook back on disk (other tests save solved ones there); its path and its cells."""
    release = bundle / "notebooks" / found.assignment / found.notebook
    on_disk = lab.root / found.assignment / found.notebook
    on_disk.write_text(release.read_text(encoding="utf-8"), encoding="utf-8")
    return f"{found.assignment}/{found.notebook}", on_disk, json.loads(release.read_text(encoding="utf-8"))["cells"]


def widget_in(notebook, index):
    root = notebook.cells.nth(index).locator(".gw-root")
    root.wait_for()
    root.scroll_into_view_if_needed()
    return root


def node(root, name):
    return root.locator(f'g.gw-node[data-name="{name}"]')


def test_lesson_1_clicks_are_saved_reopened_and_graded(lab, browser, bundle, shots, tmp_path):
    found = lesson("lesson1_graphs")
    path, on_disk, cells = fresh(lab, bundle, found)
    runnable = widget_cells(cells, "forward_graph(", "answers=")
    widget_index = runnable[-1]

    notebook = Notebook(browser, lab, path)
    notebook.run_each_cell(only(cells, runnable))
    root = widget_in(notebook, widget_index)
    said = root.locator(".gw-said")
    expect(node(root, "p")).to_have_class(re.compile(r"\bgw-ready\b"))
    expect(node(root, "q")).not_to_have_class(re.compile(r"\bgw-ready\b"))

    node(root, "q").click()  # not ready: p has no value yet
    expect(said).to_have_text("q is not ready: its input p has no value yet.")
    expect(said).to_have_class(re.compile(r"\bgw-refused\b"))
    expect(root.locator(".gw-order")).to_have_text("order so far: none")
    notebook.shot(shots / "widget-lesson1-refused.png")

    node(root, "p").click()  # ready: computes
    expect(said).to_have_text("p = mul(2, 3) = 6.")
    expect(node(root, "p")).to_have_class(re.compile(r"\bgw-done\b"))
    expect(node(root, "p")).to_contain_text("value 6")
    for name in ("q", "L"):
        node(root, name).click()
    expect(root.locator(".gw-order")).to_have_text("order so far: p, q, L")
    expect(said).to_contain_text("L = sq(8) = 64.")

    inputs = root.locator('fieldset[data-question="inputs"]')
    inputs.locator('input[value="p"]').check()
    expect(inputs.locator(".gw-verdict")).to_contain_text("tick each of them")
    inputs.locator('input[value="a"]').check()
    expect(inputs.locator(".gw-verdict")).to_contain_text("Right")
    fan_out = root.locator('fieldset[data-question="fan_out"]')
    fan_out.locator('input[value="p"]').check()
    expect(fan_out.locator(".gw-verdict")).to_contain_text("p is read only by q")
    fan_out.locator('input[value="a"]').check()
    expect(fan_out.locator(".gw-verdict")).to_contain_text("Right")
    edges = root.locator('fieldset[data-question="edges"]')
    edges.locator('input[type="number"]').fill("5")
    edges.get_by_role("button", name="Check").click()
    expect(edges.locator(".gw-verdict")).to_contain_text("Right")
    root.screenshot(path=shots / "widget_lesson1.png")
    notebook.save()
    notebook.close()

    saved = json.loads(on_disk.read_text(encoding="utf-8"))
    states = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"].values()
    clicked = [s["state"]["answers"] for s in states if s["state"].get("answers")]
    assert clicked == [{"ORDER": ["p", "q", "L"], "INPUTS_OF_Q": ["a", "p"], "FAN_OUT_NODE": "a", "EDGE_COUNT": 5}]

    # Opened again, in a new tab, after a restart of the kernel: running the cells brings the clicks back.
    notebook = Notebook(browser, lab, path)
    notebook.menu("Kernel", "Restart Kernel…")
    notebook.page.locator(".jp-Dialog .jp-mod-accept").click()
    notebook.wait_for_kernel(lab, path)
    notebook.run_each_cell(only(cells, runnable))
    root = widget_in(notebook, widget_index)
    expect(root.locator(".gw-order")).to_have_text("order so far: p, q, L")
    expect(root.locator('fieldset[data-question="edges"] .gw-verdict')).to_contain_text("Right")
    notebook.shot(shots / "widget-lesson1-reopened.png")
    notebook.save()
    notebook.close()

    # Graded as JupyterLab saved it: the answer cells still raise, the clicks answer them.
    handed_in = tmp_path / "submitted" / "clicker" / found.assignment / found.notebook
    handed_in.parent.mkdir(parents=True)
    shutil.copyfile(on_disk, handed_in)
    out = tmp_path / "out"
    done = run(["make", "grade", f"OUT={out}", f"SUBMISSIONS={tmp_path / 'submitted'}"], ROOT, INSTALL_S)
    assert done.returncode == 0, f"`make grade` failed:\n{tail(done.stdout)}"
    _id, grades = gradebook_grades(out, found, "clicker")
    assert {g: grades[g][0] for g in QUESTIONS} == {g: 1.0 for g in QUESTIONS}, grades
    assert grades["answer_multiple_choice"][0] == 0.0  # not answered, in the widget or in its cell
    cli = run(
        [str(ROOT / ".venv" / "bin" / "python"), "-m", "autograder", "grade", str(handed_in), "--json"], ROOT, INSTALL_S
    )
    results = json.loads(cli.stdout[cli.stdout.index("{") :])
    statuses = {t["name"]: t["status"] for t in results["tests"]}
    assert all(statuses[f"{g} (answer)"] == "passed" for g in QUESTIONS), statuses


def test_lesson_2_sweep_refuses_out_of_order_and_shows_assignment_going_wrong(lab, browser, bundle, shots):
    found = lesson("lesson2_backward")
    path, _on_disk, cells = fresh(lab, bundle, found)
    runnable = widget_cells(cells, "backward_graph(")
    notebook = Notebook(browser, lab, path)
    notebook.run_each_cell(only(cells, runnable))
    root = widget_in(notebook, runnable[-1])
    said = root.locator(".gw-said")

    node(root, "a").click()  # t has not sent its contribution yet
    expect(said).to_have_text("a's gradient is not complete: t reads a and has not sent its contribution yet.")
    expect(said).to_have_class(re.compile(r"\bgw-refused\b"))
    for name in ("L", "t", "a"):
        node(root, name).click()
    expect(root.locator('g.gw-edge[data-edge="x>a"]')).to_contain_text("64 + 64")
    expect(node(root, "x")).to_contain_text("grad 128(64 + 64)")
    notebook.shot(shots / "widget-lesson2-adding.png")

    root.locator("input.gw-assign").check()  # each contribution now replaces what was there
    expect(root.locator(".gw-order")).to_have_text("passed on so far: none")
    for name in ("L", "t", "a"):
        node(root, name).click()
    expect(node(root, "t")).to_have_class(re.compile(r"\bgw-wrong\b"))
    expect(root.locator(".gw-summary")).to_contain_text("x receives 16, where adding gives 128. t went wrong first")
    root.screenshot(path=shots / "widget_lesson2.png")
    notebook.close()
