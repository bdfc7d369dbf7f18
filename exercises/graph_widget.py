"""A graph you click in JupyterLab: compute it forwards node by node, or run the backward sweep by hand.

    from exercises.graph_widget import forward_graph, backward_graph
    forward_graph(graph, {"a": 2, "b": 3}, OPS)                # click the nodes to compute them
    forward_graph(graph, leaves, OPS, question="q",            # and answer three questions on the graph;
                  answers={"order": "ORDER", "inputs": "INPUTS_OF_Q", "fan_out": "FAN_OUT_NODE", "edges": "EDGE_COUNT"})
    backward_graph(graph, {"x": 2}, OPS)                       # click the nodes in an order the sweep allows

The widget is an anywidget: its script and style (graph_widget.js, graph_widget.css, beside
this file) travel with it, so it needs no network. What a click does is decided here, in
Python (exercises/walkthrough.py), and the page only draws it: boxes and arrows placed by
exercises/layout.py, as ``draw`` places them.

Answers. ``answers`` maps what the widget asks (``order``: the order you computed the graph
in, once every node has a value; ``inputs``: the names you ticked; ``fan_out``: the name you
picked; ``edges``: the count you gave) to the variable a lesson's answer cell sets. When one
of them changes, the widget sets that variable in the notebook, so the check cell under the
question sees it, and keeps it in its own state, ``answers``, which JupyterLab saves in the
notebook: that saved state is your answer when the notebook is graded, unless the answer
cell sets the variable itself, which then counts instead.

When the kernel restarts, a widget built again with the same graph takes back the clicks
saved in the notebook file (or those of the widget it replaces, when the cell runs again).
Where no widget can show (a notebook converted to HTML, a feedback page), the picture
``draw`` makes stands in for it.
"""

import json
import os
import time
from pathlib import Path

from exercises.layout import layout
from exercises.walkthrough import Backward, Forward, Shape, judge_edges, judge_fan_out, judge_inputs, number

HERE = Path(__file__).parent
# Pixels: a box and the gaps between them; backward boxes hold two lines more, and edges carry their contributions.
SIZES = {"forward": (112, 58, 64, 22), "backward": (150, 78, 100, 22)}
MARGIN = 10
QUESTIONS = ("order", "inputs", "fan_out", "edges")
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
MAX_SAVED_BYTES = 20_000_000  # a notebook larger than this is not read back for clicks
_LATEST = {}  # key: the live widget of that key, so a cell run again carries its clicks over

try:
    import anywidget
    import traitlets
except ImportError:  # no anywidget: forward_graph and backward_graph show the static picture instead
    anywidget = None


def _placed(graph, mode):
    placed = layout(graph, *SIZES[mode], margin=MARGIN)
    boxes = {name: [round(x, 2), round(y, 2)] for name, (x, y) in placed.boxes.items()}
    edges = [
        [source, target, times, [[round(x, 2), round(y, 2)] for x, y in points]]
        for source, target, times, points in placed.edges
    ]
    return boxes, edges, [round(placed.width, 2), round(placed.height, 2)]


def _picture(graph, values=None):
    """The static picture: exercises/draw.py's figure of the graph."""
    from exercises.draw import draw

    return draw(graph, values=values)


def _saved_states(key):
    """The widget states saved in this kernel's notebook file under ``key``, latest answer first."""
    path, states = os.environ.get("JPY_SESSION_NAME", ""), ()
    if path.endswith(".ipynb"):
        notebook = Path(path) if Path(path).is_absolute() else Path.cwd() / Path(path).name
        try:
            if notebook.stat().st_size <= MAX_SAVED_BYTES:
                saved = json.loads(notebook.read_text(encoding="utf-8"))["metadata"]["widgets"][WIDGET_STATE]["state"]
                states = [model["state"] for model in saved.values()]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            states = ()
    mine = [s for s in states if isinstance(s, dict) and s.get("key") == key and isinstance(s.get("answered_at"), int)]
    return sorted(mine, key=lambda s: s["answered_at"], reverse=True)


if anywidget is not None:

    class GraphWidget(anywidget.AnyWidget):
        """The clickable graph; build it with forward_graph or backward_graph."""

        _esm = HERE / "graph_widget.js"
        _css = HERE / "graph_widget.css"

        key = traitlets.Unicode("").tag(sync=True)
        mode = traitlets.Unicode("forward").tag(sync=True)
        title = traitlets.Unicode("").tag(sync=True)
        ops = traitlets.Dict().tag(sync=True)  # name: its op, "leaf" for a leaf
        boxes = traitlets.Dict().tag(sync=True)  # name: [x, y] of its box's top left corner
        box = traitlets.List([0, 0]).tag(sync=True)
        edges = traitlets.List().tag(sync=True)  # [source, target, times read, [[x, y], ...]]
        size = traitlets.List([0, 0]).tag(sync=True)
        values = traitlets.Dict().tag(sync=True)  # name: its value, as text
        grads = traitlets.Dict().tag(sync=True)  # name: its gradient so far, as text
        arrivals = traitlets.Dict().tag(sync=True)  # name: the contributions it received, when more than one
        edge_labels = traitlets.Dict().tag(sync=True)  # "source>target": what travelled along the edge
        ready = traitlets.List().tag(sync=True)
        wrong = traitlets.List().tag(sync=True)  # backward, assigning: the names whose gradient came out wrong
        clicks = traitlets.List().tag(sync=True)  # the accepted clicks, in order: "order so far"
        said = traitlets.Unicode("").tag(sync=True)
        said_ok = traitlets.Bool(True).tag(sync=True)
        assign = traitlets.Bool(False).tag(sync=True)
        summary = traitlets.Unicode("").tag(sync=True)  # backward, when done: what the sweep returned
        quiz = traitlets.Dict().tag(sync=True)  # question: {"node", "choices", "given", "ok", "text"}
        answers = traitlets.Dict().tag(sync=True)  # variable: the learner's answer, as plain JSON
        answered_at = traitlets.Int(0).tag(sync=True)  # milliseconds since 1970 when ``answers`` last changed

        def __init__(self, graph, leaves, ops, mode, key, title="", question=None, answers=None):
            graph = [(name, op, list(reads)) for name, op, reads in graph]
            boxes, edges, size = _placed(graph, mode)
            shape = Shape(graph)
            super().__init__(
                key=key,
                mode=mode,
                title=title,
                boxes=boxes,
                edges=edges,
                size=size,
                box=list(SIZES[mode][:2]),
                ops={**{leaf: "leaf" for leaf in shape.leaves}, **shape.op},
            )
            self._graph, self._leaves = graph, dict(leaves)
            self._forward = Forward(graph, leaves, ops)
            self._backward = None
            if mode == "backward":
                for name in shape.nodes:
                    self._forward.click(name)
                self._backward = Backward(graph, self._forward.values)
            self._names = {q: v for q, v in (answers or {}).items() if q in QUESTIONS}
            self._given = {}
            self._question = question
            self.on_msg(self._on_message)
            self._restore()
            self._publish()
            previous = _LATEST.get(key)
            if previous is not None and previous is not self:
                previous.close()
            _LATEST[key] = self

        # ---- what the page sends

        def _on_message(self, _widget, content, _buffers):
            if not isinstance(content, dict):
                return
            kind = content.get("kind")
            if kind == "click" and isinstance(content.get("name"), str):
                self.click(content["name"])
            elif kind == "reset":
                self.reset()
            elif kind == "assign" and isinstance(content.get("on"), bool):
                self.set_assign(content["on"])
            elif kind == "tick" and isinstance(content.get("names"), list):
                self.tick([n for n in content["names"] if isinstance(n, str)])
            elif kind == "pick" and isinstance(content.get("name"), str):
                self.pick(content["name"])
            elif kind == "edges" and isinstance(content.get("count"), int) and not isinstance(content["count"], bool):
                self.count_edges(content["count"])

        # ---- what a learner can do, callable from Python too

        def click(self, name):
            walk = self._backward or self._forward
            said = walk.click(name)
            self.said, self.said_ok = said.text, said.ok
            self._publish()
            return said

        def reset(self):
            (self._backward or self._forward).reset()
            self.said, self.said_ok = "", True
            self._publish()

        def set_assign(self, on):
            if self._backward is None:
                return
            self._backward.assign = bool(on)
            self._backward.reset()
            self.said, self.said_ok = (
                (
                    "Each contribution now replaces what was there (=), instead of adding to it (+=)."
                    if on
                    else "Each contribution adds to what was there (+=) again."
                ),
                True,
            )
            self._publish()

        def tick(self, names):
            self._answer("inputs", [n for n in self._forward.shape.names if n in names])

        def pick(self, name):
            self._answer("fan_out", name)

        def count_edges(self, count):
            self._answer("edges", count)

        # ---- state

        def _answer(self, question, given):
            if question not in self._names and question != "order":
                return
            self._given[question] = given
            self._publish()

        def _judged(self, question):
            shape, given = self._forward.shape, self._given.get(question)
            if given is None or given == []:
                return None
            if question == "inputs":
                return judge_inputs(shape, self._question, given)
            if question == "fan_out":
                return judge_fan_out(shape, given)
            return judge_edges(shape, given)

        def _publish(self):
            forward, backward = self._forward, self._backward
            if backward is None:
                self.values = {n: number(v) for n, v in forward.values.items()}
                self.ready = forward.ready()
                self.clicks = list(forward.order)
                self.grads, self.arrivals, self.edge_labels, self.wrong, self.summary = {}, {}, {}, [], ""
            else:
                self.values = {n: number(v) for n, v in forward.values.items()}
                self.ready = backward.ready()
                self.clicks = list(backward.passed)
                self.assign = backward.assign
                self.grads = {name: number(grad) for name, grad in backward.grads.items()}
                joined = ", then ".join if backward.assign else " + ".join
                self.arrivals = {
                    name: joined(number(s.value) for s in arrived)
                    for name, arrived in backward.received.items()
                    if len(arrived) > 1
                }
                labels = {}
                for sent in backward.sent:
                    labels.setdefault(f"{sent.source}>{sent.target}", []).append(number(sent.value))
                self.edge_labels = {edge: joined(terms) for edge, terms in labels.items()}
                first = backward.first_wrong()
                self.wrong = [n for n in backward.sweep_order() if n == first]
                self.summary = self._summary(backward, first)
            quiz = {}
            if "inputs" in self._names:
                choices = [n for n in forward.shape.names if n != self._question]
                quiz["inputs"] = {"node": self._question, "choices": choices}
            if "fan_out" in self._names:
                quiz["fan_out"] = {"choices": forward.shape.names}
            if "edges" in self._names:
                quiz["edges"] = {}
            for question, entry in quiz.items():
                judged = self._judged(question)
                entry["given"] = self._given.get(question)
                entry["ok"], entry["text"] = (judged.ok, judged.text) if judged else (None, "")
            self.quiz = quiz
            answers = {}
            if "order" in self._names and forward.done() and backward is None:
                answers[self._names["order"]] = list(forward.order)
            for question in ("inputs", "fan_out", "edges"):
                if question in self._names and self._given.get(question) not in (None, []):
                    answers[self._names[question]] = self._given[question]
            if answers != self.answers:
                gone = [name for name in self.answers if name not in answers]  # after Reset: ORDER is unanswered again
                self.answers = answers
                self.answered_at = int(time.time() * 1000)
                _set_in_notebook(answers, gone)

        @staticmethod
        def _summary(backward, first):
            if not backward.done():
                return ""
            leaves = ", ".join(
                f"{leaf} receives {number(backward.grads.get(leaf, 0.0))}" for leaf in backward.shape.leaves
            )
            if first is None:
                return f"The sweep is complete: {leaves}."
            right = backward.right_grads()
            return (
                f"The sweep is complete: {leaves}, where adding gives "
                f"{', '.join(number(right[leaf]) for leaf in backward.shape.leaves)}. {first} went wrong first: it "
                f"kept {number(backward.grads[first])} where the sum is {number(right[first])}."
            )

        def _restore(self):
            """Take back the clicks of the widget this one replaces, or those saved in the notebook file."""
            previous = _LATEST.get(self.key)
            if previous is not None:
                state = {"clicks": previous.clicks, "assign": previous.assign, "given": dict(previous._given)}
            else:
                saved = _saved_states(self.key)
                if not saved:
                    return
                state = {
                    "clicks": saved[0].get("clicks"),
                    "assign": saved[0].get("assign"),
                    "given": {q: (saved[0].get("quiz") or {}).get(q, {}).get("given") for q in QUESTIONS},
                }
            if self._backward is not None and state["assign"] is True:
                self._backward.assign = True
            for name in state["clicks"] if isinstance(state["clicks"], list) else []:
                if isinstance(name, str):
                    (self._backward or self._forward).click(name)
            given = state["given"] if isinstance(state["given"], dict) else {}
            if isinstance(given.get("inputs"), list):
                self._given["inputs"] = [n for n in given["inputs"] if isinstance(n, str)]
            if isinstance(given.get("fan_out"), str):
                self._given["fan_out"] = given["fan_out"]
            if isinstance(given.get("edges"), int) and not isinstance(given["edges"], bool):
                self._given["edges"] = given["edges"]

        def _repr_mimebundle_(self, **kwargs):
            bundle = super()._repr_mimebundle_(**kwargs)
            data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
            data["text/plain"] = f"the clickable graph {self.title or self.key}: run the cell in JupyterLab to use it"
            return data, metadata

        def _repr_png_(self):
            """The static picture, for wherever the widget cannot show (IPython adds it beside the widget's view)."""
            try:
                values = self._forward.values if self.mode == "forward" else None
                return _picture(self._graph, values)._repr_png_()
            except Exception:  # noqa: BLE001 - no matplotlib: the widget alone
                return None


def _set_in_notebook(answers, gone=()):
    """Set each answer's variable in the notebook's namespace, and unset those in ``gone``, when there is a notebook."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        for name in gone:
            shell.user_ns.pop(name, None)
        shell.user_ns.update(
            {name: (list(value) if isinstance(value, list) else value) for name, value in answers.items()}
        )


def _key(mode, graph, key):
    return key or f"{mode}:" + ";".join(f"{n}={op}({','.join(r)})" for n, op, r in graph)


def forward_graph(graph, leaves, ops, *, title="", question=None, answers=None, key=None):
    """The graph to compute node by node; with ``answers``, also the questions on it (see the module's docstring)."""
    if anywidget is None:
        return _picture(graph)
    if answers and "inputs" in answers and question is None:
        raise ValueError("the inputs question needs question=, the node whose inputs are ticked")
    return GraphWidget(graph, leaves, ops, "forward", _key("forward", graph, key), title, question, answers)


def backward_graph(graph, leaves, ops, *, title="", key=None):
    """The graph's backward sweep, to run by clicking the nodes in an order the sweep allows."""
    if anywidget is None:
        return _picture(graph)
    return GraphWidget(graph, leaves, ops, "backward", _key("backward", graph, key), title)
