"""A driven case's call as the learner would write it: the public program a driver runs, in the lesson's own terms.

A driver (graphcourse/drivers/) is the grader's way of running a short program against the learner's module; its
name means nothing to a learner. Feedback shows instead the lines the learner could type to see the same thing:

    tape = Tape(); x = tape.leaf('x', 1.5)
    then multiplied_numbers(x), where: 2 * x; return x * 2
"""

import inspect

from autograder.grading.compare import clip, short
from graphcourse.drivers.tape import TAPE_PROGRAMS


def program(name):
    """A tape program's body on one line: "u = w * w; u = u * u; return u * u"."""
    lines = inspect.getsource(TAPE_PROGRAMS[name]).splitlines()[1:]
    body = "; ".join(line for line in (line.split("#")[0].strip() for line in lines) if line)
    return clip(body.replace(":; ", ": "), 240)


SHOWN = 24  # records or graphs longer than this are given by their size alone


def _shown(value):
    """A value of the call as Python writes it, or its size when it is long (a 200,000-record input, say)."""
    if isinstance(value, (list, dict)) and len(value) > SHOWN:
        return f"<{len(value):,} {'records' if isinstance(value, dict) else 'entries'}>"
    return short(value, 300)


def _leaves(leaves, tape="tape"):
    return "; ".join(f"{name} = {tape}.leaf({name!r}, {value!r})" for name, value in leaves.items())


def _run(name, leaves):
    names = ", ".join(f"{leaf}={leaf}" if name == "lesson_one" else leaf for leaf in leaves)
    return [f"tape = Tape(); {_leaves(leaves)}", f"then {name}({names}), where: {program(name)}"]


def _trace(name, leaves):
    return [f"trace({name}, {short(leaves)}), where {name} does: {program(name)}"]


def _mixed(same_tape):
    other = "tape" if same_tape else "Tape()"
    return [f"tape = Tape(); x = tape.leaf('x', 1.0); y = {other}.leaf('y', 2.0); x + y"]


def _across(method):
    return [
        "first, second = Tape(), Tape(); x = first.leaf('x', 4.0); first.leaf('y', 6.0)",
        f"x.{method}(second.leaf('y', 2.5))",
    ]


def _leaves_of(pairs):
    return [
        f"tape = Tape(); then tape.leaf(name, value) for each (name, value) of {short(pairs)}, reading "
        "tape.graph and tape.values before and after"
    ]


def _two_tapes(first, second):
    return [f"one, two = Tape(), Tape(); leaves given in turn: one gets {short(first)}, two gets {short(second)}"]


def _foreign(leaves):
    return [f"elsewhere = Tape().leaf('elsewhere', 1.0); trace(lambda **leaves: elsewhere, {short(leaves)})"]


def _twice(first, first_leaves, second, second_leaves):
    return [
        f"one = trace({first}, {short(first_leaves)}); trace({second}, {short(second_leaves)}); then one's graph "
        "and values read again",
        f"where {first} does: {program(first)}",
        f"and {second} does: {program(second)}",
    ]


def _order(nodes):
    return [f"topological_order(nodes), nodes = {_shown(nodes)}"]


def _order_edit(nodes):
    return [
        f"graph = topological_order(nodes), nodes = {_shown(nodes)}",
        "then each inputs list of graph appended to (nodes should not change)",
    ]


def _called(output):
    return "gradient_graph(graph)" if output is None else f"gradient_graph(graph, {output!r})"


def _symbolic(graph, output):
    return [f"graph2, grads = {_called(output)}, graph = {_shown(graph)}"]


def _symbolic_edit(graph, output):
    return _symbolic(graph, output) + ["then each inputs list of graph2 appended to (graph should not change)"]


def _symbolic_twice(graph, output):
    return _symbolic(graph, output) + ["then gradient_graph(graph2, grads[x]) for x the first leaf graph reads"]


def _symbolic_fresh(template, output):
    return [
        f"{_called(output)} on graph = {_shown(template)}, then again on the same graph with "
        "its placeholders #0, #1, ... renamed to the names the first call made up"
    ]


def _saved_edit(graph):
    return [
        f"saved = saved_for_backward(graph), graph = {_shown(graph)}",
        "then each list of saved appended to (graph should not change)",
    ]


WRITTEN = {
    "tape_run": _run,
    "tape_trace": _trace,
    "tape_trace_summary": _trace,
    "tape_mixed": _mixed,
    "tape_operator_across": _across,
    "tape_leaves": _leaves_of,
    "tape_two_tapes": _two_tapes,
    "tape_trace_foreign": _foreign,
    "tape_trace_twice": _twice,
    "order_graph": _order,
    "order_then_edit": _order_edit,
    "symbolic_graph": _symbolic,
    "symbolic_then_edit": _symbolic_edit,
    "symbolic_twice": _symbolic_twice,
    "symbolic_fresh": _symbolic_fresh,
    "memory_saved_then_edit": _saved_edit,
}


def written(case):
    """The lines of a driven case's call as the learner would write them (never the driver's name)."""
    try:
        lines = WRITTEN[case.driver](*case.args, **case.kwargs)
    except (KeyError, TypeError):  # a program this table does not know yet: the input's label says what it does
        return [f"call: {case.fn}, as the input above says"]
    return [f"call: {lines[0]}"] + [f"      {line}" for line in lines[1:]]
