"""Lessons 5 and 6's hidden checks on answers no zoo entry gives: hostile shapes, and the largest graph2 the size bound
allows."""

import pytest

from autograder.grading.submission import Chunk
from autograder.sandbox.limits import Limits
from autograder.sandbox.sandbox import Sandbox
from graphcourse.builders import as_graph
from graphcourse.checks import checkpoint_recomputed, gradient_graph_deep, gradient_graph_first, stale_position
from graphcourse.drivers import symbolic as drivers
from graphcourse.judges import JUDGES
from solutions import symbolic

SUM = gradient_graph_first.CHECKS[0].cases[0]  # y = u + v
ENTRIES = ["y\tadd\tu\tv", "k\tone"]
RIGHT = {"u": "k", "v": "k", "y": "k"}


def first(value):
    failure = JUDGES["gradient_graph_first"](None, SUM, {"status": "ok", "value": value})
    return failure.summary if failure else None


def test_the_reference_answer_passes_as_the_driver_sends_it():
    assert first(drivers.symbolic_graph(symbolic, as_graph(SUM.args[0]), None)) is None
    assert first([ENTRIES, RIGHT]) is None


@pytest.mark.parametrize(
    "value, says",
    [
        ("gradient_graph returned 3, not (graph2, grads)", "returned 3"),
        ([ENTRIES + ["p\tneg\tq", "q\tneg\tp"], RIGHT], "in a cycle"),
        ([ENTRIES + ["p\tneg\tk\tk"], RIGHT], "takes 1"),
        ([ENTRIES + ["p\texp\tk"], RIGHT], "not an op of OPS"),
        ([ENTRIES + ["u\tone"], RIGHT], "reuses the name 'u'"),
        ([ENTRIES + ["k\tone"], RIGHT], "given to two new nodes"),
        ([["y\tadd\tv\tu", "k\tone"], RIGHT], "should start with the nodes of graph"),
        ([ENTRIES, {**RIGHT, "u": "nowhere"}], "no name of graph2"),
        ([ENTRIES + ["z\tsub\tk\tk", "p\tdiv\tk\tz"], {**RIGHT, "u": "p"}], "ZeroDivisionError"),
        ([ENTRIES + ["p\tneg\tghost"], RIGHT], "never defines"),
        ([[[[[]]]], {}], "entry 0 of graph2"),
        ([{"a": 1}, {}], "could not be read"),
        ([ENTRIES, {"u": "k", "v": "k"}], None),  # y, the output, is gradient_graph_names' business
        ([ENTRIES + ["z\tsub\tk\tk"], {**RIGHT, "v": "z"}], "dL/dv"),
    ],
)
def test_hostile_gradient_graphs_fail_with_a_sentence(value, says):
    summary = first(value)
    assert (summary is None) if says is None else (says in summary), summary


def test_memory_judges_refuse_what_is_not_the_answer():
    stale = stale_position.CHECKS[0].cases[0]  # x replaced after position 1: ["p"]
    counted = checkpoint_recomputed.CHECKS[0].cases[1]  # 16 products, every=4: 12
    for value in ({}, [1], ["p", "p"], ["ghost"]):
        assert JUDGES["stale_list"](None, stale, {"status": "ok", "value": value}) is not None, value
    for value in ([{}, True], [{}, 12.0], [{}, 13], [{}, 12, 0], 12):
        assert JUDGES["checkpoint_recomputed"](None, counted, {"status": "ok", "value": value}) is not None, value
    assert JUDGES["checkpoint_recomputed"](None, counted, {"status": "ok", "value": [{}, 12]}) is None


def test_the_renaming_rule_skips_names_the_template_holds():
    template = [("#1", "neg", ["#0"]), ("L", "sq", ["#1"])]
    assert drivers.symbolic_renamed(template, ["L", "d0", "d0", "#1", "d1"]) == [
        ("d1", "neg", ["d0"]),
        ("L", "sq", ["d1"]),
    ]
    assert drivers.symbolic_renamed(template, ["d0"]) == [("#1", "neg", ["d0"]), ("L", "sq", ["#1"])]


PADDED = (
    open(symbolic.__file__, encoding="utf-8").read()
    + """

_reference_gradient_graph = gradient_graph


def gradient_graph(graph, output=None):
    graph2, grads = _reference_gradient_graph(graph, output)
    room = 8 * sum(len(inputs) for _name, _op, inputs in graph) + 3 - (len(graph2) - len(graph))
    return graph2 + [(f"padding_node_number_{k}", "one", []) for k in range(room)], grads
"""
)


def test_a_graph2_at_the_size_bound_fits_the_deep_checks_reply():
    """8 new nodes per edge of the deep check's longest chain, plus 3: the reply holds them all, and the answer
    passes."""
    case = gradient_graph_deep.cases()[0]
    with Sandbox([Chunk("padded", PADDED)], Limits()) as sandbox:
        reply = sandbox.call(case.fn, list(case.args), case.kwargs, seconds=10, **case.request())
    assert reply["status"] == "ok", reply
    longest = gradient_graph_deep.SIZES[-1]
    assert len(reply["value"][0]) == longest + 8 * longest + 3
    assert JUDGES["gradient_graph_first"](None, case, reply) is None
