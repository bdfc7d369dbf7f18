"""Judge a sandbox reply against the reference, in the trusted process.

Replies are checked for exact plain types first (a number is an int or a float and
never a bool; names are str), then compared. A judge returns None when the reply is
right, or a Failure that says what was expected and what came back.
"""

import copy
import functools
import math
import re
import sys
from dataclasses import dataclass

from autograder.sandbox.parent import quiet_gc
from exercises.strategies import central_difference
from solutions import graph as reference

REL_TOL, ABS_TOL = 1e-6, 1e-9  # answers the reference computes exactly
FD_TOL = 1e-4  # agreement with central differences
FLOAT_MAX = sys.float_info.max  # an int beyond this cannot be compared as a float
MESSAGE_CHARS = 600  # the most any one sentence about a learner's answer may quote
NUMBER_ANSWERS = ("evaluate", "backward")  # functions that answer a dict of numbers; the others, a list of names


@dataclass
class Failure:
    case: object  # the Case that showed the problem
    summary: str  # one sentence: what was expected and what came back
    got: object = None  # the learner's answer, as plain values (None if there was none)
    first_wrong: str = ""  # backward: the first node of the sweep whose gradient is wrong
    status: str = "ok"  # the reply's status: ok, raised, timeout, died, ...
    error_type: str = ""

    def __post_init__(self):
        self.summary = clip(self.summary)  # the one place every sentence about a failure passes


class NotPlain(Exception):
    """The reply holds something other than the plain values the function must return."""


def is_number(value):
    """An int or a float, never a bool, and never an int too large to compare with a float."""
    return type(value) is float or (type(value) is int and -FLOAT_MAX <= value <= FLOAT_MAX)


def as_number_dict(value):
    if type(value) is not dict:
        raise NotPlain(f"should return a dict, but returned {_kind(value)}")
    kinds = set(map(type, value.values()))  # type sets run at C speed: a 200,000-entry answer is common
    if (set(map(type, value)) <= {str} and kinds <= {int, float}
            and (int not in kinds or all(is_number(v) for v in value.values() if type(v) is int))):
        return value
    key, number = next((k, v) for k, v in value.items() if type(k) is not str or not is_number(v))
    raise NotPlain(f"returned a dict whose entry {short(key)}: {short(number)} is not a name mapped to a number")


def as_name_list(value):
    if type(value) is not list or not all(type(v) is str for v in value):
        raise NotPlain(f"should return a list of names, but returned {_kind(value)}: {short(value)}")
    return value


def _kind(value):
    return {dict: "a dict", list: "a list", str: "a string", type(None): "None", bool: "a bool"}.get(
        type(value), type(value).__name__
    )


def short(value, limit=160):
    """repr(value), cut to ``limit`` characters: learner data is never quoted in full."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int with too many digits to print, or lists nested too deeply
        return f"a {type(value).__name__} too large to show"
    return clip(text, limit)


def clip(text, limit=MESSAGE_CHARS):
    """text cut to ``limit`` characters, for sentences that may carry learner data."""
    return text if len(text) <= limit else text[: limit - 3] + "..."




def close(got, want, rel=REL_TOL, abs_=ABS_TOL):
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    return math.isclose(got, want, rel_tol=rel, abs_tol=abs_)


def _fresh(value):
    """A copy of a plain value: a dict of numbers or strings (a long graph's values) is copied flat."""
    if type(value) is dict and all(type(v) in (int, float, str) for v in value.values()):
        return dict(value)
    return copy.deepcopy(value)


def as_tuples(args):
    """The call's arguments as the reference takes them: graph entries as tuples, fresh copies."""
    graph, *rest = args
    return [[(name, op, list(inputs)) for name, op, inputs in graph], *map(_fresh, rest)]


def _per_case(compute, keep=4096):
    """``compute(case)``, worked out once for each of the ``keep`` cases used latest (the result is shared: never change it)."""
    cache = {}  # id(case) -> (case, result), least recently used first

    def remembered(case):
        cached = cache.pop(id(case), None)
        if cached is None or cached[0] is not case:
            cached = (case, quiet_gc(compute, case))
            while len(cache) >= keep:
                del cache[next(iter(cache))]  # the one used longest ago
        cache[id(case)] = cached  # the latest used last
        return cached[1]

    remembered.__doc__ = compute.__doc__
    return remembered


def _answer(case):
    """The reference's answer for `case`."""
    return getattr(reference, case.fn)(*as_tuples(case.args), **case.kwargs)


def _node_names(case):
    """The names of the nodes of the graph `case` is called on."""
    return frozenset(name for name, _op, _inputs in case.args[0])


reference_answer = _per_case(_answer)
node_names = _per_case(_node_names)


def no_answer(case, reply):
    """A Failure for a reply that carries no return value, or None if it does."""
    status = reply.get("status")
    if status == "ok":
        return None
    fn = case.fn
    if status == "raised":
        error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
        kind = error.get("type") if isinstance(error.get("type"), str) else "an exception"
        where = f" ({error['where'][:120]})" if isinstance(error.get("where"), str) and error["where"] else ""
        message = error.get("message") if isinstance(error.get("message"), str) else ""
        said = f": {message[:200]}" if message.strip() else ""
        return Failure(case, f"{fn} raised {kind[:60]}{said}{where}", status=status, error_type=kind[:60])
    text = {
        "missing": f"your code defines no function {fn}",
        "timeout": f"{fn} did not return within {reply.get('seconds', 0):.0f} s (an endless loop, or far too slow)",
        "died": f"the process running {fn} stopped during the call (exit status {reply.get('exit')})",
        "invalid": f"the process running {fn} sent an unreadable reply ({reply.get('reason', '')})",
        "unsendable": f"{fn} returned something that is not plain numbers, names, lists and dicts",
        "unloadable": "your code could not be loaded, so nothing could be called",
    }.get(status, f"{fn} gave no answer ({status})")
    return Failure(case, text, status=str(status))


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


anchor_answer = _per_case(_anchor_answer)

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


def never_raises(judge):
    """``judge``, made total: an answer shaped like nothing it foresaw fails that check instead of stopping grading."""

    @functools.wraps(judge)
    def judged(check, case, reply):
        try:
            return judge(check, case, reply)
        except Exception as err:  # noqa: BLE001 - whatever the learner's answer made the judge trip over
            return Failure(case, f"{case.fn}'s answer could not be judged ({type(err).__name__}); it should hold "
                                 "plain numbers and names, in the lists and dicts the instructions describe")

    return judged


JUDGES = {
    name: never_raises(judge)
    for name, judge in (
        ("reference", judge_reference),
        ("returns", judge_returns),
        ("valueerror", judge_valueerror),
        ("valueerror_named", judge_valueerror_named),
        ("unchanged", judge_unchanged),
        ("finite_differences", judge_finite_differences),
    )
}
