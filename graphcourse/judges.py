"""How the graph course's replies are judged against the references, in the trusted process.

Each judge takes (check, case, reply) and returns None when the reply is right, or a
Failure (autograder/grading/compare.py) saying what was expected and what came back.
Expected answers are the references' own, worked out once per case.
"""

import copy
import functools
import importlib
import math
import re

from autograder.grading.compare import (
    Failure, NotPlain, as_name_list, as_number_dict, close, fresh, never_raises, no_answer, per_case, short,
)
from autograder.course.lessons import module_of
from autograder.grading.feedback import describe_call
from exercises.strategies import central_difference
from solutions import graph as reference


@functools.cache
def reference_module(function):  # noqa: D401 - used by the runner, the judges and the drivers
    """The reference module that defines a learner function (solutions/<its lesson's module>.py)."""
    return importlib.import_module(f"solutions.{module_of(function) or 'graph'}")

FD_TOL = 1e-4  # agreement with central differences
NUMBER_ANSWERS = ("evaluate", "backward")  # functions that answer a dict of numbers; the others, a list of names


def as_tuples(args):
    """The call's arguments as the reference takes them: graph entries as tuples, fresh copies."""
    graph, *rest = args
    return [[(name, op, list(inputs)) for name, op, inputs in graph], *map(fresh, rest)]


def _answer(case):
    """The reference's answer for `case`."""
    return getattr(reference_module(case.fn), case.fn)(*as_tuples(case.args), **case.kwargs)


def _node_names(case):
    """The names of the nodes of the graph `case` is called on."""
    return frozenset(name for name, _op, _inputs in case.args[0])


reference_answer = per_case(_answer)
node_names = per_case(_node_names)


def sweep_order(case):
    """Names in the order a backward sweep settles them: output, earlier nodes, then leaves."""
    graph = case.args[0]
    output = case.kwargs.get("output") or graph[-1][0]
    names = [output] + [node[0] for node in reversed(graph) if node[0] != output]
    seen = set(names)
    return names + [name for name in case.args[1] if name not in seen]


def compare_dicts(case, got, want):
    """None when got is right, else the first wrong name (sweep order) or a sentence about the names.

    A case with ``judged`` names compares those entries only: the other names, and which names
    are reported at all, are another family's rule.
    """
    if case.judged:
        want = {name: want[name] for name in case.judged}
        missing = [name for name in want if name not in got]
        if missing:
            return f"the result has no entry for {short(missing)}"
        got = {name: got[name] for name in want}
    if got == want:
        return None
    missing = [name for name in want if name not in got]
    if missing:
        return f"the result has no entry for {short(missing)}"
    extra = [name for name in got if name not in want]
    if extra:
        return f"the result has entries for names that are not in the graph: {short(extra)}"
    order = sweep_order(case) if case.fn == "backward" else list(want)
    for name in order:
        if name in want and not close(got[name], want[name]):
            return name
    return None


def judge_reference(check, case, reply):
    failure = no_answer(case, reply)
    if failure:
        return failure
    want = reference_answer(case)
    got = reply.get("value")
    try:
        got = as_number_dict(got) if isinstance(want, dict) else as_name_list(got)
    except NotPlain as err:
        return Failure(case, f"{case.fn} {err}")
    if isinstance(want, list):
        if got != want:
            return Failure(case, f"expected {want}, got {short(got)}", got=got)
        return None
    wrong = compare_dicts(case, got, want)
    if wrong is None:
        return None
    if wrong not in want:  # a sentence about missing or extra entries
        return Failure(case, wrong, got=got)
    what = "dL/d" if case.fn == "backward" else "the value of "
    summary = f"expected {what}{wrong} = {want[wrong]!r}, got {got[wrong]!r}"
    return Failure(case, summary, got=got, first_wrong=wrong if case.fn == "backward" else "")


def judge_valueerror(check, case, reply):
    status = reply.get("status")
    if status == "raised" and (reply.get("error") or {}).get("value_error") is True:
        return None
    if status == "ok":
        try:  # keep the answer for diagnosis only if it is plain numbers
            got = as_number_dict(reply.get("value"))
        except NotPlain:
            got = None
        return Failure(case, f"expected ValueError, but evaluate returned {short(reply.get('value'))}", got=got)
    failure = no_answer(case, reply)
    if status == "raised":
        failure.summary = f"expected ValueError, but {failure.summary}"
    return failure


def first_missing(case):
    """(node, name): the first node, in listed order, that reads a name with no value yet."""
    known = set(case.args[1])
    for node, _op, inputs in case.args[0]:
        for name in inputs:
            if name not in known:
                return node, name
        known.add(node)
    return None


def judge_valueerror_named(check, case, reply):
    """A ValueError whose message names the node and the missing name, each as a whole word."""
    failure = judge_valueerror(check, case, reply)
    if failure:
        return failure
    message = str((reply.get("error") or {}).get("message", ""))
    node, name = first_missing(case)
    unnamed = [n for n in (node, name) if not re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", message)]
    if unnamed:
        return Failure(
            case,
            f"evaluate raised ValueError({short(message, 120)}), but the message should name the node "
            f"{node!r} and the missing name {name!r}",
            status="raised",
            error_type="ValueError",
        )
    return None


def anchor(case):
    """The one entry a property family checks the value of, so that no constant answer passes it.

    backward: the output's first input, whose gradient is one local slope of the output's op
    (every sweep that starts at the output gets it right, whatever else it gets wrong);
    evaluate: the first node, one op applied to leaves.
    """
    graph = case.args[0]
    if case.fn == "backward":
        output = case.kwargs.get("output") or graph[-1][0]
        return next(inputs[0] for name, _op, inputs in reversed(graph) if name == output)  # mostly the last node
    return graph[0][0]


def _anchor_answer(case):
    """The reference's answer at the anchor entry alone: what judge_returns compares.

    For backward, the sweep runs over the nodes listed after the anchor, the only ones that can read it
    (a leaf anchor: every node). Each of them gets the same gradient and adds the same contributions, in the
    same order, as in a sweep of the whole graph, so the number is bit for bit the whole answer's; on the
    200,000-node chain it costs a few nodes instead of the whole sweep.
    """
    name = anchor(case)
    if case.fn != "backward":
        return reference_answer(case)[name]
    graph, values = case.args[0], case.args[1]
    after = next((len(graph) - k for k, (node, _op, _inputs) in enumerate(reversed(graph)) if node == name), 0)
    later = [(node, op, list(inputs)) for node, op, inputs in graph[after:]]  # every node that can read the anchor
    return reference.backward(later, dict(values), **case.kwargs)[name]


anchor_answer = per_case(_anchor_answer)

ANCHORED = ("returns", "unchanged", "linear_time")  # judges that compare one entry of a dict answer (anchor)


def work_out(judge, case):
    """Work out now, once, what judging `case` with `judge` compares against: later judging finds it cached."""
    if judge in ANCHORED and case.fn in NUMBER_ANSWERS:
        anchor_answer(case)
        node_names(case)
    elif judge == "reference" or judge in ANCHORED:  # inputs_of and users_of: the whole list
        reference_answer(case)


def judge_returns(check, case, reply):
    """A property family's bar on the answer: a plain dict naming every node, right at the anchor entry.

    deep_graph, linear_time and no_mutation judge their property, not the numbers: the value families do.
    """
    failure = no_answer(case, reply)
    if failure:
        return failure
    if case.fn not in NUMBER_ANSWERS:  # inputs_of and users_of: the list itself
        return judge_reference(check, case, reply)
    try:
        got = as_number_dict(reply.get("value"))
    except NotPlain as err:
        return Failure(case, f"{case.fn} {err}")
    nodes = node_names(case)
    missing = [] if got.keys() >= nodes else [name for name, _op, _inputs in case.args[0] if name not in got]
    if missing:
        return Failure(case, f"the result has no entry for the node(s) {short(missing)}", got=got)
    name = anchor(case)
    want = anchor_answer(case)
    if not close(got[name], want):
        what = f"dL/d{name}" if case.fn == "backward" else f"the value of {name}"
        return Failure(case, f"expected {what} = {want!r}, got {got[name]!r}", got=got)
    return None


def judge_unchanged(check, case, reply):
    """The arguments are as they were, and the call answered (see judge_returns): leaving them alone earns nothing on its own."""
    failure = judge_returns(check, case, reply)
    if failure:
        return failure
    after = reply.get("args_after")
    before = copy.deepcopy(list(case.args))
    if after == before:
        return None
    names = ["graph", "leaves" if case.fn == "evaluate" else "values" if case.fn == "backward" else "name"]
    changed = [n for i, n in enumerate(names) if not isinstance(after, list) or i >= len(after) or after[i] != before[i]]
    return Failure(case, f"{case.fn} changed its argument(s) {', '.join(changed) or 'graph'}")


def judge_finite_differences(check, case, reply):
    failure = no_answer(case, reply)
    if failure:
        return failure
    try:
        got = as_number_dict(reply.get("value"))
    except NotPlain as err:
        return Failure(case, f"backward {err}")
    graph = as_tuples(case.args)[0]
    values = case.args[1]
    leaves = {name: value for name, value in values.items() if name not in {n for n, _, _ in graph}}
    output = graph[-1][0]
    for leaf in leaves:
        numeric = central_difference(reference.evaluate, graph, leaves, leaf, output)
        if leaf not in got:
            return Failure(case, f"the result has no entry for the leaf {leaf!r}", got=got)
        if not math.isclose(got[leaf], numeric, rel_tol=FD_TOL, abs_tol=FD_TOL):
            want = reference_answer(case)
            wrong = compare_dicts(case, got, want)
            summary = f"central differences give dL/d{leaf} = {numeric:.6g}, backward gave {got[leaf]!r}"
            return Failure(case, summary, got=got, first_wrong=wrong if wrong in want else "")
    return None


def judge_timed(check, case, reply):
    """A timed check's bar on the answer: the case's own judge when it names one (a later lesson's), else judge_returns."""
    if case.expect and case.expect != "linear_time":
        return JUDGES[case.expect](check, case, reply)
    return judge_returns(check, case, reply)


JUDGES = {
    name: never_raises(judge)
    for name, judge in (
        ("reference", judge_reference),
        ("returns", judge_returns),
        ("valueerror", judge_valueerror),
        ("valueerror_named", judge_valueerror_named),
        ("unchanged", judge_unchanged),
        ("finite_differences", judge_finite_differences),
        ("linear_time", judge_timed),  # a timed check's bar on the answer; the runner judges the time
    )
}


SHOWN_NODES = 12  # graphs larger than this are named by their label only


def describe_graph(graph):
    return "; ".join(f"{name} = {op}({', '.join(inputs)})" for name, op, inputs in graph)


def describe(case):
    """How feedback shows a case's input: the graph, node by node, and the call (any other call as the kit shows it)."""
    if case.driver or tuple(case.decode) != ((0, "graph"),):
        return describe_call(case)
    graph = case.args[0]
    lines = [f"input: {case.label}" if case.label else "input:"]
    if len(graph) <= SHOWN_NODES:
        lines.append(f"  graph: [{describe_graph(graph)}]")
        rest = ", ".join(repr(a) for a in case.args[1:])
        kwargs = ", ".join(f"{k}={v!r}" for k, v in case.kwargs.items())
        lines.append(f"  call: {case.fn}(graph, {', '.join(x for x in (rest, kwargs) if x)})")
    else:
        lines.append(f"  a graph of {len(graph):,} nodes")
    return lines


def driven_answer(case):
    """The reference's answer to a driven case: the same public program, run here on the reference module."""
    from graphcourse import drivers

    return drivers.all_drivers()[case.driver](reference_module(case.fn), *copy.deepcopy(list(case.args)),
                                              **copy.deepcopy(case.kwargs))


# A check family may define JUDGES of its own, next to its checks: they join these (last, so that every
# helper above is defined when a family module imports it).
def _with_family_judges():
    from graphcourse import checks

    for module in checks.family_modules():
        clash = set(getattr(module, "JUDGES", {})) & set(JUDGES)
        if clash:
            raise ValueError(f"{module.__name__}: its JUDGES redefine {sorted(clash)}; give them names of their own")
        JUDGES.update({name: never_raises(judge) for name, judge in getattr(module, "JUDGES", {}).items()})


_with_family_judges()
