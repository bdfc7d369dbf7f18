"""How the graph course's replies are judged against the references, in the trusted process.

Each judge takes (check, case, reply) and returns None when the reply is right, or a
Failure (autograder/grading/compare.py) saying what was expected and what came back.
Expected answers are the references' own, worked out once per case.
"""

import copy
import functools
import importlib
import math
import operator
import re

from autograder.course.lessons import module_of
from autograder.grading.compare import (
    Failure,
    NotPlain,
    as_name_list,
    as_number_dict,
    close,
    first_not_finite,
    fresh,
    never_raises,
    no_answer,
    per_case,
    short,
)
from autograder.grading.feedback import describe_call
from exercises.strategies import central_difference
from graphcourse.builders import build, places
from solutions import graph as reference


@functools.cache
def first_wrong_said(wrong):
    """The feedback's line about a sweep's first wrong gradient (none when there is no such node)."""
    return (f"first node whose gradient is wrong, in sweep order: {wrong}",) if wrong else ()


def reference_module(function):  # used by the runner, the judges and the drivers
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


def not_a_number(case, got, want_of, where="", overflow=False):
    """A Failure for the first entry of ``got`` that is NaN or infinite where the reference's is finite, or None.

    ``want_of()`` gives the reference's whole answer; it is asked for only when such an entry exists, so a
    property family that compares one entry pays nothing for an answer of finite numbers. ``overflow=True``
    lets infinities pass (NaN never does): a wrong rule carried back over thousands of blocks may overflow.
    """
    if first_not_finite(got) is None:
        return None
    want = want_of()
    name = next(
        (
            n
            for n, v in got.items()
            if not math.isfinite(v) and math.isfinite(want.get(n, 0.0)) and not (overflow and math.isinf(v))
        ),
        None,
    )
    if name is None:
        return None
    what = "dL/d" if case.fn == "backward" else "the value of "
    return Failure(
        case,
        f"{what}{name} is {got[name]!r}{where}, but the reference's is a finite number: an answer "
        "holds numbers, never NaN or an infinity standing in for one",
        got=got,
        status="not_a_number",
    )


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
    wrong = wrong if case.fn == "backward" else ""
    return Failure(case, summary, got=got, first_wrong=wrong, details=first_wrong_said(wrong))


def judge_exact(check, case, reply):
    """judge_reference, then every judged gradient equal to the reference's exactly (== on floats).

    The value families' graphs hold small dyadic numbers (tests/test_checks.py proves that every value, slope,
    contribution and partial sum of them is exact in floating point), so every sweep that multiplies local slopes
    gets each gradient exactly, in whatever order it adds. A gradient estimated by re-running the graph with nudged
    values (differences, extrapolated or not) is close but not exact: it fails here with status "inexact".
    """
    failure = judge_reference(check, case, reply)
    if failure:
        return failure
    got, want = reply["value"], reference_answer(case)
    names = case.judged or want
    wrong = next((name for name in sweep_order(case) if name in names and got[name] != want[name]), None)
    if wrong is None:
        return None
    summary = (
        f"expected dL/d{wrong} = {want[wrong]!r} exactly, got {got[wrong]!r}: every value and slope of this "
        "graph is exact in floating point, so a sweep that multiplies local slopes gets every gradient exactly"
    )
    return Failure(case, summary, got=got, first_wrong=wrong, details=first_wrong_said(wrong), status="inexact")


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
    elif judge in ("reference", "exact") or judge in ANCHORED:  # inputs_of and users_of: the whole list
        reference_answer(case)
    elif judge in ("carried_back", "carried_back_unchanged"):  # the long input's places, and the short answer
        long_plan(case)
        short_answer(case.driver)


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
    failure = not_a_number(case, got, lambda: reference_answer(case))
    if failure:
        return failure
    name = anchor(case)
    want = anchor_answer(case)
    if not close(got[name], want):
        what = f"dL/d{name}" if case.fn == "backward" else f"the value of {name}"
        return Failure(case, f"expected {what} = {want!r}, got {got[name]!r}", got=got)
    return None


def judge_unchanged(check, case, reply):
    """The arguments are as they were, and the call answered (see judge_returns): leaving them alone earns nothing on
    its own."""
    failure = judge_returns(check, case, reply)
    if failure:
        return failure
    return _changed(case, reply)


def _changed(case, reply):
    """A Failure naming the arguments the call changed, or None."""
    after = reply.get("args_after")
    before = copy.deepcopy(list(case.args))
    if after == before:
        return None
    names = ["graph", "leaves" if case.fn == "evaluate" else "values" if case.fn == "backward" else "name"]
    changed = [
        n for i, n in enumerate(names) if not isinstance(after, list) or i >= len(after) or after[i] != before[i]
    ]
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
            wrong = wrong if wrong in want else ""
            return Failure(case, summary, got=got, first_wrong=wrong, details=first_wrong_said(wrong))
    return None


def _short_input(driver):
    """The short input a backward driver answers first (graphcourse/drivers/backward.py), built here as in the child."""
    from graphcourse.drivers.backward import BACKWARD_SHORT

    graph, values = build(BACKWARD_SHORT[driver])
    return graph, values, places(graph)


short_input = functools.cache(_short_input)


@functools.cache
def short_answer(driver):
    """The reference's answer on a driver's short input."""
    graph, values, _places = short_input(driver)
    return reference.backward([(n, op, list(inputs)) for n, op, inputs in graph], dict(values), output=graph[-1][0])


long_places = per_case(lambda case: places(case.args[0]))


class Inconsistent(Exception):
    """The learner's answer on the short input is not one rule per place: no long answer can be judged by it."""


def _rule(points):
    """The learner's own rule for one place, from (upstream gradient, gradient) pairs of the short answer.

    Any sweep that works a name's gradient out from its readers' gives the names of one place a gradient
    that is an affine function of the one arriving from upstream (a multiple of it in a correct sweep; one
    more when every gradient starts at 1.0; a constant when the arriving gradient is left out). Two pairs
    with different upstream gradients fix that function; with one upstream gradient only, the rule is known
    at that gradient alone (None elsewhere).
    """
    (u0, y0) = min(points)
    (u1, y1) = max(points)
    if close(u0, u1):
        if not all(close(y, y0) for _u, y in points):
            raise Inconsistent
        return lambda u: y0 if close(u, u0) else None
    slope = (y1 - y0) / (u1 - u0)
    if not all(close(y, y0 + slope * (u - u0)) for u, y in points):
        raise Inconsistent
    return lambda u: y0 + slope * (u - u0)


def _rules(graph, got, found):
    """{place: (the gradient at that place right under the output, rule for the others)} from a short answer."""
    output = graph[-1][0]
    at_output, points = {}, {}
    for name, (place, upstream) in found.items():
        if upstream == output:
            at_output.setdefault(place, []).append(got[name])
        else:
            points.setdefault(place, []).append((got[upstream], got[name]))
    if any(not all(close(y, ys[0]) for y in ys) for ys in at_output.values()):
        raise Inconsistent
    return {
        place: (at_output.get(place, [None])[0], _rule(points[place]) if place in points else None)
        for place in set(at_output) | set(points)
    }


def _long_order(graph, values):
    """Names as a sweep settles them: the nodes from the last, then the leaves."""
    nodes = [name for name, _op, _inputs in reversed(graph)]
    known = set(nodes)
    return nodes + [name for name in values if name not in known]


def _values_of(names):
    """A function giving the tuple of a dict's values at ``names``, at C speed."""
    if len(names) == 1:
        return lambda answer: (answer[names[0]],)
    return operator.itemgetter(*names)


def _long_plan(case):
    """What judge_carried_back asks of a long answer, worked out once per case: every name that has a place.

    (the names right under the output with their places, and for each other place: its names, the
    names their gradients arrive from, and getters of both from an answer).
    """
    output = case.kwargs.get("output") or case.args[0][-1][0]
    at_output, below = [], {}
    for name, (place, upstream) in long_places(case).items():
        if upstream == output:
            at_output.append((name, place))
        else:
            names, upstreams = below.setdefault(place, ([], []))
            names.append(name)
            upstreams.append(upstream)
    return at_output, [
        (place, names, upstreams, _values_of(names), _values_of(upstreams))
        for place, (names, upstreams) in below.items()
    ]


long_plan = per_case(_long_plan)


def _carried_back(rules, got, plan):
    """Whether every name with a place gets what the short answer's rule for its place gives (see judge_carried_back).

    The same test as the ordered walk that names the first wrong entry, made cheap for a long answer that
    passes: the rule is applied once per place and gradient arriving from upstream, not once per name, and
    the answer is compared with what the rules give at C speed, name by name only where it is not equal.
    """
    try:
        return _all_carried_back(rules, got, *plan)
    except Exception:  # noqa: BLE001 - an answer the rules trip over: the ordered walk says what is wrong, as before
        return False


def _all_carried_back(rules, got, at_output, below):
    for name, place in at_output:
        want = rules.get(place, (None, None))[0]
        if want is None or not (got[name] == want or close(got[name], want)):
            return False
    for place, _names, _upstreams, names_of, upstreams_of in below:
        rule = rules.get(place, (None, None))[1]
        if rule is None:
            return False
        arriving = upstreams_of(got)
        wants = {gradient: rule(gradient) for gradient in set(arriving)}  # equal gradients get equal answers
        given = names_of(got)
        if len(wants) == 1 and None not in wants.values() and given.count(*wants.values()) == len(given):
            continue  # one gradient arrives at every name of this place, and each of them gets its rule's answer
        wanted = list(map(wants.__getitem__, arriving))
        if wanted == list(given):
            continue
        for want, gradient in zip(wanted, given):
            if want is None or not (gradient == want or close(gradient, want)):
                return False
    return True


def judge_carried_back(check, case, reply):
    """A property family's bar on backward's answer: the learner's own short answer, carried back block by block.

    The driver answers [backward on a short input of blocks, backward on the long input]. Both must name
    every name, the short one must depend on the graph (not one number for every name below the output), and
    every name of the long input must get what the short answer's rule for its place gives from the gradient
    of the name above it. A wrong slope, a wrong seed or assigning instead of adding is wrong the same way on
    both inputs, so it passes; an answer that treats a long input differently from a short one does not.
    """
    failure = no_answer(case, reply)
    if failure:
        return failure
    value = reply.get("value")
    if type(value) is not list or len(value) != 2:
        return Failure(case, f"backward's answers could not be read: {short(value)}")
    short_graph, short_values, short_places = short_input(case.driver)
    try:
        short_got, got = as_number_dict(value[0]), as_number_dict(value[1])
    except NotPlain as err:
        return Failure(case, f"backward {err}")
    small = f"a short input of {len(short_graph)} nodes made of the same blocks"
    for answer, values, where in ((short_got, short_values, f" on {small}"), (got, case.args[1], "")):
        missing = [] if answer.keys() >= values.keys() else [name for name in values if name not in answer]
        if missing:
            return Failure(case, f"the result{where} has no entry for {short(missing)}", got=got)
    failure = not_a_number(case, short_got, lambda: short_answer(case.driver), f" on {small}") or not_a_number(
        case, got, lambda: reference_answer(case), overflow=True
    )
    if failure:  # NaN agrees with nothing: no rule can be read from it, and none can carry it back; the short
        return (
            failure  # answer's numbers are small, but a wrong rule carried over a long input may overflow, as it would
        )
    short_output = short_graph[-1][0]
    below = [short_got[name] for name in short_places]  # every name in a block or a sum, and none other
    if all(close(gradient, below[0]) for gradient in below):  # the short input's right gradients are -2, -1, 0 and 1
        return Failure(
            case,
            f"on {small}, every name in a block or a sum gets the gradient {below[0]!r}: an answer that "
            "does not depend on the graph",
            got=got,
        )
    try:
        rules = _rules(short_graph, short_got, short_places)
    except Inconsistent:
        return Failure(
            case,
            f"on {small}, names in the same place of their blocks, under the same gradient, get "
            "different gradients: backward should treat every block alike",
            got=got,
            status="inconsistent",
        )
    graph = case.args[0]
    output = case.kwargs.get("output") or graph[-1][0]
    if not close(got[output], short_got[short_output]):
        return Failure(
            case,
            f"the output's own entry is {got[output]!r} here, but {short_got[short_output]!r} on {small}",
            got=got,
            status="inconsistent",
        )
    if _carried_back(rules, got, long_plan(case)):
        return None
    return first_not_carried_back(case, got, rules, small)


def first_not_carried_back(case, got, rules, small):
    """The Failure naming the first name, in sweep order, whose gradient its place's rule does not give; or None."""
    graph = case.args[0]
    output = case.kwargs.get("output") or graph[-1][0]
    found = long_places(case)
    for name in _long_order(graph, case.args[1]):
        if name not in found:
            continue
        place, upstream = found[name]
        at_output, rule = rules.get(place, (None, None))
        want = at_output if upstream == output else rule(got[upstream]) if rule else None
        if want is None or not close(got[name], want):
            said = f"{want!r}" if want is not None else "a gradient it never gave there"
            return Failure(
                case,
                f"dL/d{name} = {got[name]!r}, but your own backward on {small} gives {said} at the same place "
                f"of a block when the gradient above it is {got[upstream]!r}: the answer on a large graph should "
                "follow, block by block, from the answer on a small one",
                got=got,
                status="inconsistent",
            )
    return None


def judge_carried_back_unchanged(check, case, reply):
    """judge_carried_back's bar on the answer, and the arguments as they were (judge_unchanged's)."""
    failure = judge_carried_back(check, case, reply)
    if failure:
        return failure
    return _changed(case, reply)


def judge_timed(check, case, reply):
    """A timed check's bar on the answer: the case's own judge when it names one (a later lesson's), else
    judge_returns."""
    if case.expect and case.expect != "linear_time":
        return JUDGES[case.expect](check, case, reply)
    return judge_returns(check, case, reply)


JUDGES = {
    name: never_raises(judge)
    for name, judge in (
        ("reference", judge_reference),
        ("exact", judge_exact),
        ("returns", judge_returns),
        ("valueerror", judge_valueerror),
        ("valueerror_named", judge_valueerror_named),
        ("unchanged", judge_unchanged),
        ("finite_differences", judge_finite_differences),
        ("linear_time", judge_timed),  # a timed check's bar on the answer; the runner judges the time
        ("carried_back", judge_carried_back),
        ("carried_back_unchanged", judge_carried_back_unchanged),
    )
}


SHOWN_NODES = 12  # graphs larger than this are named by their label only


def describe_graph(graph):
    return "; ".join(f"{name} = {op}({', '.join(inputs)})" for name, op, inputs in graph)


def describe(case):
    """How feedback shows a case's input: the graph, node by node, and the call (any other call as the kit shows it)."""
    from graphcourse.drivers.backward import BACKWARD_SHORT

    if case.driver and case.driver not in BACKWARD_SHORT:  # a public program: shown as the learner would write it
        from graphcourse import calls

        return [f"input: {case.label}" if case.label else "input:", *(f"  {line}" for line in calls.written(case))]
    if tuple(case.decode) != ((0, "graph"),):
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
    if case.driver:
        short_graph = short_input(case.driver)[0]
        lines.append(f"  judged by backward's own answer on {len(short_graph)} nodes of the same blocks, called first")
    return lines


def driven_answer(case):
    """The reference's answer to a driven case: the same public program, run here on the reference module."""
    from graphcourse import drivers

    return drivers.all_drivers()[case.driver](
        reference_module(case.fn), *copy.deepcopy(list(case.args)), **copy.deepcopy(case.kwargs)
    )


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


def reply_names(value, names):
    """The names a right answer may hold for a graph argument (autograder/sandbox/reply_bounds.py): when ``value`` is
    a list of (name, op, inputs) nodes, add its node names to ``names`` (its leaves are named again by the values
    dict, or are one node's inputs) and say True; else False, and the kit reads ``value`` item by item."""
    if not value or type(value[0]) not in (list, tuple) or len(value[0]) != 3:
        return False
    try:
        heads = {node[0] for node in value}
    except (TypeError, IndexError, KeyError):
        return False
    names.update(head for head in heads if type(head) is str)
    return True
