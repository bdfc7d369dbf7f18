"""The clickable graph: what a click does (exercises/walkthrough.py), the widget around it
(exercises/graph_widget.py), and its saved answers read back as hostile JSON and graded
(exercises/widget_answers.py, the mirror of autograder/pipeline/handins.py, the CLI's grading)."""

import ast
import json
import math
from types import SimpleNamespace

import pytest

from autograder.course.lessons import LESSONS
from autograder.grading import answers as answer_judges
from autograder.grading.submission import from_notebook_json
from exercises import notebook
from exercises.walkthrough import Backward, Forward, Shape, judge_edges, judge_fan_out, judge_inputs
from exercises.widget_answers import (
    KEPT,
    MAX_ANSWERS,
    WIDGET_STATE,
    answers_chunk,
    chunks as chunks_of_answers,
    saved_answers,
)
from graphcourse.answers import assign_sweep
from graphcourse.examples import ABA_SQUARED, ABC_LEAVES, ABC_SQUARED, DIAMOND, DIAMOND_LEAVES
from solutions.graph import OPS, backward, evaluate

ABA_LEAVES = {"a": 2, "b": 3}
LESSON_1 = next(lesson for lesson in LESSONS if lesson.assignment == "lesson1_graphs")
CLICKED = {"ORDER": ["p", "q", "L"], "INPUTS_OF_Q": ["a", "p"], "FAN_OUT_NODE": "a", "EDGE_COUNT": 5}
QUESTIONS = ("answer_order", "answer_inputs_of_q", "answer_fan_out_node", "answer_edge_count")


# ---------------------------------------------------------------- forward mode


def test_only_nodes_whose_inputs_have_values_are_ready():
    walk = Forward(ABA_SQUARED, ABA_LEAVES, OPS)
    assert walk.ready() == ["p"]
    walk.click("p")
    assert walk.ready() == ["q"]


def test_a_click_on_a_node_that_is_not_ready_is_refused_with_the_missing_input():
    walk = Forward(ABA_SQUARED, ABA_LEAVES, OPS)
    said = walk.click("L")
    assert not said.ok and "L is not ready" in said.text and "input q has no value yet" in said.text
    assert walk.order == [] and "L" not in walk.values
    assert not walk.click("a").ok and "leaf" in walk.click("a").text
    assert not walk.click("nowhere").ok


def test_clicks_compute_values_and_grow_the_order_and_reset_starts_again():
    walk = Forward(ABC_SQUARED, ABC_LEAVES, OPS)
    for name in ("p", "z", "L"):
        assert walk.click(name).ok
    assert walk.order == ["p", "z", "L"] and walk.done()
    assert walk.values == evaluate(ABC_SQUARED, ABC_LEAVES)
    assert "already" in walk.click("p").text
    walk.reset()
    assert walk.order == [] and walk.ready() == ["p"] and set(walk.values) == set(ABC_LEAVES)


def test_a_graph_whose_leaf_or_op_is_missing_is_refused_when_built():
    with pytest.raises(ValueError, match="leaf 'b'"):
        Forward(ABA_SQUARED, {"a": 2}, OPS)
    with pytest.raises(ValueError, match="'sq'"):
        Forward(ABA_SQUARED, ABA_LEAVES, {"mul": OPS["mul"], "add": OPS["add"]})


def test_the_three_questions_are_judged_with_a_reason():
    shape = Shape(ABA_SQUARED)
    assert judge_inputs(shape, "q", ["a", "p"]).ok
    wrong = judge_inputs(shape, "q", ["p", "b"])
    assert not wrong.ok and "b has no arrow straight into q" in wrong.text
    assert not judge_inputs(shape, "q", ["p"]).ok
    assert judge_fan_out(shape, "a").ok
    assert "only by q" in judge_fan_out(shape, "p").text and not judge_fan_out(shape, "p").ok
    assert judge_edges(shape, 5).ok and not judge_edges(shape, 4).ok and not judge_edges(shape, True).ok


# ---------------------------------------------------------------- reverse mode


def sweep(assign=False):
    return Backward(DIAMOND, evaluate(DIAMOND, DIAMOND_LEAVES), assign=assign)


def test_the_sweep_refuses_a_node_whose_readers_have_not_sent_their_contribution():
    walk = sweep()
    assert walk.ready() == ["L"]
    said = walk.click("a")
    assert not said.ok and "t reads a and has not sent its contribution yet" in said.text
    assert not walk.click("x").ok and walk.passed == []


def test_each_click_sends_one_contribution_per_edge_and_a_fan_out_sums_them():
    walk = sweep()
    walk.click("L")
    assert [(s.source, s.target, s.value) for s in walk.sent] == [("t", "L", 8), ("t", "L", 8)]
    assert walk.sums()["t"] == "8 + 8 = 16"
    walk.click("t")
    walk.click("a")
    assert walk.grads == backward(DIAMOND, evaluate(DIAMOND, DIAMOND_LEAVES))
    assert walk.sums()["x"] == "64 + 64 = 128" and walk.done() and walk.first_wrong() is None


def test_the_assign_switch_goes_wrong_where_the_zoo_entry_does():
    walk = sweep(assign=True)
    for name in ("L", "t", "a"):
        walk.click(name)
    x, first_wrong = assign_sweep()
    assert math.isclose(walk.grads["x"], x) and walk.first_wrong() == first_wrong == "t"
    assert walk.sums()["t"] == "8, then 8: keeps 8"


# ---------------------------------------------------------------- the widget


@pytest.fixture
def widgets():
    graph_widget = pytest.importorskip("exercises.graph_widget")
    if graph_widget.anywidget is None:
        pytest.skip("anywidget is not installed")
    graph_widget._LATEST.clear()
    yield graph_widget
    graph_widget._LATEST.clear()


def lesson_1_widget(widgets):
    return widgets.forward_graph(
        ABA_SQUARED,
        ABA_LEAVES,
        OPS,
        question="q",
        key="test:aba",
        answers={"order": "ORDER", "inputs": "INPUTS_OF_Q", "fan_out": "FAN_OUT_NODE", "edges": "EDGE_COUNT"},
    )


def test_the_widget_turns_clicks_into_answers(widgets):
    w = lesson_1_widget(widgets)
    assert w.ready == ["p"] and w.answers == {} and w.boxes.keys() == {"a", "b", "p", "q", "L"}
    w._on_message(w, {"kind": "click", "name": "q"}, [])
    assert not w.said_ok and "input p has no value yet" in w.said
    for name in ("p", "q"):
        w._on_message(w, {"kind": "click", "name": name}, [])
    assert w.clicks == ["p", "q"] and "ORDER" not in w.answers  # not every node has a value yet
    w._on_message(w, {"kind": "click", "name": "L"}, [])
    w._on_message(w, {"kind": "tick", "names": ["p", "a", 7]}, [])
    w._on_message(w, {"kind": "pick", "name": "a"}, [])
    w._on_message(w, {"kind": "edges", "count": 5}, [])
    assert w.answers == CLICKED and w.answered_at > 0
    assert all(w.quiz[q]["ok"] for q in ("inputs", "fan_out", "edges"))
    w._on_message(w, {"kind": "reset"}, [])
    assert w.clicks == [] and w.answers == {
        name: CLICKED[name] for name in ("INPUTS_OF_Q", "FAN_OUT_NODE", "EDGE_COUNT")
    }


def test_the_widget_sets_and_unsets_the_answers_in_the_notebook(widgets, monkeypatch):
    shell = SimpleNamespace(user_ns={"ORDER": "typed before"})
    monkeypatch.setattr("IPython.get_ipython", lambda: shell)
    w = lesson_1_widget(widgets)
    for name in ("p", "q", "L"):
        w.click(name)
    assert shell.user_ns["ORDER"] == ["p", "q", "L"]
    w.reset()
    assert "ORDER" not in shell.user_ns


@pytest.mark.parametrize(
    "content",
    [
        None,
        [],
        {"kind": "click"},
        {"kind": "edges", "count": True},
        {"kind": "edges", "count": "5"},
        {"kind": "tick", "names": "p"},
        {"kind": "x"},
    ],
)
def test_the_widget_ignores_messages_of_other_shapes(widgets, content):
    w = lesson_1_widget(widgets)
    w._on_message(w, content, [])
    assert w.answers == {} and w.clicks == []


def test_the_backward_widget_labels_edges_and_shows_the_assignment_going_wrong(widgets):
    w = widgets.backward_graph(DIAMOND, DIAMOND_LEAVES, OPS, key="test:diamond")
    w._on_message(w, {"kind": "assign", "on": True}, [])
    for name in ("L", "t", "a"):
        w.click(name)
    assert w.edge_labels == {"t>L": "8, then 8", "a>t": "8, then 8", "x>a": "16, then 16"}
    assert w.wrong == ["t"] and "x receives 16" in w.summary and "128" in w.summary
    assert w.answers == {}


def test_the_static_picture_stands_in_where_no_widget_shows(widgets):
    from IPython.core.formatters import DisplayFormatter

    data, _metadata = DisplayFormatter().format(lesson_1_widget(widgets))
    assert {"application/vnd.jupyter.widget-view+json", "image/png", "text/plain"} <= set(data)
    assert data["image/png"].startswith(b"\x89PNG")


def test_a_cell_run_again_keeps_the_clicks_and_a_restart_takes_them_from_the_saved_notebook(
    widgets, tmp_path, monkeypatch
):
    first = lesson_1_widget(widgets)
    for name in ("p", "q", "L"):
        first.click(name)
    again = lesson_1_widget(widgets)
    assert again.clicks == ["p", "q", "L"] and again.answers["ORDER"] == ["p", "q", "L"]
    state = {
        "old": {"state": {"key": "test:aba", "answered_at": 5, "clicks": ["p"], "quiz": {}}},
        "new": {
            "state": {
                "key": "test:aba",
                "answered_at": 9,
                "clicks": ["p", "q"],
                "quiz": {"fan_out": {"given": "a"}, "edges": {"given": True}},
            }
        },
    }
    saved = tmp_path / "lesson.ipynb"
    saved.write_text(json.dumps({"metadata": {"widgets": {WIDGET_STATE: {"state": state}}}}), encoding="utf-8")
    monkeypatch.setenv("JPY_SESSION_NAME", str(saved))
    widgets._LATEST.clear()  # a new kernel
    restored = lesson_1_widget(widgets)
    assert restored.clicks == ["p", "q"] and restored.answers == {"FAN_OUT_NODE": "a"}


# ---------------------------------------------------------------- saved answers, read as hostile JSON


def with_widgets(*states, **metadata):
    """A notebook (a dict) whose saved widget state holds one model per state."""
    models = {
        f"m{i}": {"model_module": "anywidget", "model_name": "AnyModel", "state": s} for i, s in enumerate(states)
    }
    return {"cells": [], "metadata": {"widgets": {WIDGET_STATE: {"state": models}}, **metadata}}


def test_saved_answers_are_read_and_the_latest_wins():
    nb = with_widgets(
        {"answers": {"ORDER": ["q"], "EDGE_COUNT": 4}, "answered_at": 9},
        {"answers": {"ORDER": ["p", "q", "L"]}, "answered_at": 10},
        {"answers": {}, "answered_at": 99},
        {"clicks": ["x"]},
    )
    assert saved_answers(nb) == ({"ORDER": ["p", "q", "L"], "EDGE_COUNT": 4}, [])


@pytest.mark.parametrize(
    "value", [True, None, 1e400, float("nan"), 10**13, "x" * 65, ["p", ["q"]], ["p"] * 33, {"p": 1}, [True]]
)
def test_a_saved_value_of_any_other_shape_is_not_read(value):
    got, notes = saved_answers(
        with_widgets({"answers": {"ORDER": value, "EDGE_COUNT": 5}, "answered_at": 1}), "n.ipynb"
    )
    assert got == {"EDGE_COUNT": 5}
    assert notes == [
        "n.ipynb: the answer a widget saved for ORDER is not a short list, name or number, so it was not "
        "read; click it again, or type the answer in its cell"
    ]


@pytest.mark.parametrize("name", ["order", "__import__('os')", "A" * 41, "", "ORDER\n", 7])
def test_a_saved_answer_under_a_name_that_is_no_answers_is_not_read(name):
    got, notes = saved_answers(with_widgets({"answers": {name: 1}, "answered_at": 1}))
    assert got == {} and notes == [
        "the notebook: a widget saved an answer under a name that is no answer's, so it was not read"
    ]  # the name itself is never repeated


@pytest.mark.parametrize(
    "nb",
    [
        None,
        [],
        {"metadata": []},
        {"metadata": {"widgets": []}},
        {"metadata": {"widgets": {WIDGET_STATE: {"state": []}}}},
        {"metadata": {"widgets": {WIDGET_STATE: {"state": {"m": []}}}}},
        {"metadata": {"widgets": {WIDGET_STATE: {"state": {"m": {"state": {"answers": []}}}}}}},
        {"metadata": {KEPT: ["ORDER"]}},
    ],
)
def test_widget_state_of_any_other_shape_gives_no_answer(nb):
    assert saved_answers(nb) == ({}, [])


def test_too_many_answers_from_one_widget_are_not_read_and_odd_stamps_count_as_oldest():
    many = {f"A{i}": i for i in range(MAX_ANSWERS + 1)}
    got, notes = saved_answers(
        with_widgets(
            {"answers": many, "answered_at": 1},
            {"answers": {"EDGE_COUNT": 5}, "answered_at": True},
            {"answers": {"EDGE_COUNT": 4}, "answered_at": 0},
        )
    )
    assert got == {"EDGE_COUNT": 4} and "more than" in notes[0]


def test_the_answers_chunk_is_assignments_of_literals_only():
    code = answers_chunk({**CLICKED, "NOTE": "'); import os; ('", "bad name": 1, "X": [1.5, "a"]})
    tree = ast.parse(code)
    assert all(isinstance(s, ast.Assign) for s in tree.body) and len(tree.body) == 6
    values = {s.targets[0].id: ast.literal_eval(s.value) for s in tree.body}
    assert values["NOTE"] == "'); import os; ('" and values["ORDER"] == ["p", "q", "L"]


# ---------------------------------------------------------------- graded as typed answers


def hand_in(typed=None, **metadata):
    """Lesson 1's four widget questions as a blank hand-in would hold them (or typed), with widget state."""
    cells = []
    for grade_id, name in zip(QUESTIONS, CLICKED):
        source = (
            f"{name} = {typed[name]!r}"
            if typed and name in typed
            else (f'# YOUR CODE HERE\nraise NotImplementedError("answer {name}: not written yet")')
        )
        cells.append(
            {
                "cell_type": "code",
                "id": grade_id,
                "metadata": {
                    "nbgrader": {
                        "grade": False,
                        "grade_id": grade_id.replace("answer_", "") + "_solution",
                        "solution": True,
                    }
                },
                "source": source,
                "outputs": [],
                "execution_count": None,
            }
        )
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def judged(nb):
    submission = from_notebook_json(nb, "computation_graphs.ipynb")
    return answer_judges.judge(submission.chunks, list(QUESTIONS))


def test_clicked_answers_are_graded_as_typed_ones_and_a_typed_answer_wins():
    clicked = with_widgets({"answers": CLICKED, "answered_at": 3})["metadata"]
    assert judged(hand_in(**clicked)) == {g: "" for g in QUESTIONS}
    typed = judged(hand_in({"ORDER": ["q", "p", "L"]}, **clicked))
    assert "cannot be computed in that order" in typed["answer_order"] and typed["answer_edge_count"] == ""
    blank = judged(hand_in())
    assert all("NotImplementedError" in blank[g] for g in QUESTIONS)


@pytest.mark.slow
def test_the_mirror_keeps_the_checked_answers_where_the_widget_state_is_dropped(tmp_path):
    from autograder.pipeline import handins

    course = SimpleNamespace(release=lambda lesson: lesson.notebook_path(), cache=tmp_path)
    nb = json.loads(LESSON_1.notebook_path().read_text(encoding="utf-8"))
    nb["metadata"]["widgets"] = {
        WIDGET_STATE: {
            "state": {
                "m": {
                    "state": {
                        "answers": {**CLICKED, "EDGE_COUNT": "</script><script>alert(1)</script>" * 3},
                        "answered_at": 1,
                    }
                }
            }
        }
    }
    text, problem = handins.prepared(course, json.dumps(nb).encode(), LESSON_1.notebook, LESSON_1)
    mirrored = json.loads(text)
    assert problem == "" and "widgets" not in mirrored["metadata"]
    assert mirrored["metadata"][KEPT] == {name: CLICKED[name] for name in ("ORDER", "INPUTS_OF_Q", "FAN_OUT_NODE")}
    chunks, _notes = notebook.code_cells(mirrored, LESSON_1.notebook, answers=chunks_of_answers)
    assert chunks[0] == (f"{LESSON_1.notebook} widget answers", answers_chunk(mirrored["metadata"][KEPT]))


@pytest.mark.slow
def test_the_cli_grades_a_lesson_notebook_answered_by_clicking(tmp_path):
    """The source notebook with its four widget answer cells left as stubs, and the clicks saved: full marks for
    them."""
    from autograder.grading import by_lesson

    nb = json.loads(LESSON_1.notebook_path().read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id", "")
        if grade_id in {g.replace("answer_", "") + "_solution" for g in QUESTIONS}:
            cell["source"] = "# YOUR CODE HERE\n"
    nb["metadata"].update(with_widgets({"answers": CLICKED, "answered_at": 3})["metadata"])
    path = tmp_path / LESSON_1.notebook
    path.write_text(json.dumps(nb), encoding="utf-8")
    graded = by_lesson.grade_path(path)
    tests = {t["name"]: t for part in graded.parts for t in part.results["tests"]}
    for grade_id in QUESTIONS:
        assert tests[f"{grade_id} (answer)"]["status"] == "passed", tests[f"{grade_id} (answer)"]
