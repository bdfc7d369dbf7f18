"""Name the misconception behind a failure.

The zoo's buggy implementations are our own code, so the grader may run them in its
own process. When the learner's answer on the failing input equals a buggy
implementation's answer (and that answer differs from the reference's), the
learner most likely holds that misconception. Failures that leave no answer to
compare (a crash on a deep chain, a slow sweep) are named from their symptom.
"""

import copy
import json
import math
import sys

from autograder.grading import growth
from exercises.bounds import RECURSION_ADVICE
from graphcourse import zoo
from graphcourse.checks import GRAPH_FIRST
from graphcourse.judges import JUDGES, as_tuples, reference_module

SMALL = 60  # only graphs up to this many nodes are replayed on the zoo

# What a deep family says of recursion is what its public test says (exercises/bounds.py): the sandbox child
# caps sys.setrecursionlimit at Python's default (autograder/sandbox/child.py), and the public tests do the same.

_GROWS_PER_NODE = (
    "Each new node costs work that grows with the whole graph (a search through a list of the names used so far, "
    "say), so the time grows with the square of the graph. Keep what you look up in a set or a dict, which answers "
    "at once whatever its size."
)

# Symptoms that name a misconception without replaying anything: (family or check id, status, error type).
SYMPTOMS = {
    ("deep_graph", "raised", "RecursionError"): RECURSION_ADVICE["backward"],
    ("deep_graph", "died", ""): "The process crashed on a long chain, which is what deep recursion does. Walk the "
    "graph with a loop over reversed(graph) instead of recursing.",
    ("linear_time", "slow", ""): "The sweep does work that grows with the whole graph at every node (for example "
    "scanning the graph for each node's readers, or searching a list), so its time grows with the square of "
    "its size. Push each node's gradient to its inputs in one pass over reversed(graph).",
    ("linear_time", "timeout", ""): "The sweep does work that grows with the whole graph at every node, so its time "
    "grows with the square of its size. Push each node's gradient to its inputs in one pass over reversed(graph).",
    ("order_deep", "raised", "RecursionError"): RECURSION_ADVICE["topological_order"],
    ("order_linear_time/wide", "slow", ""): "The ready nodes wait in a list that gives up its first one with pop(0) "
    "(or del ready[0]), which moves every node behind it up one place: on records that are all ready at once, that "
    "is a step per waiting node for every node listed. Keep them in a collections.deque and take the next with "
    "popleft(), or take the last with pop(): any ready node may come next.",
    ("order_linear_time", "slow", ""): "The pass looks through the records again and again for a node whose inputs "
    "are all listed, so its time grows with the square of their number. Count each node's unfinished inputs once, "
    "and queue a node when its count reaches 0 (Kahn's algorithm).",
    ("trace_deep", "raised", "RecursionError"): RECURSION_ADVICE["trace"],
    ("tree_size_deep", "raised", "RecursionError"): RECURSION_ADVICE["tree_size"],
    ("checkpoint_linear_time", "slow", ""): "The sweep recomputes the values it needs from the leaves (or from far "
    "back) again for every node, so its time grows with the square of the chain. Recompute each segment once, from "
    "the checkpoint just before it, and keep its values while the sweep walks back through that segment.",
    ("checkpoint_linear_time", "timeout", ""): "The sweep recomputes the values it needs from the leaves (or from far "
    "back) again for every node, so its time grows with the square of the chain. Recompute each segment once, from "
    "the checkpoint just before it, and keep its values while the sweep walks back through that segment.",
    ("gradient_graph_deep", "raised", "RecursionError"): RECURSION_ADVICE["gradient_graph"],
    ("gradient_graph_deep", "slow", ""): _GROWS_PER_NODE,
    ("gradient_graph_deep", "timeout", ""): _GROWS_PER_NODE,
    ("order_linear_time", "timeout", ""): "The pass looks through the records again and again for a node whose inputs "
    "are all listed, so its time grows with the square of their number. Count each node's unfinished inputs once, "
    "and queue a node when its count reaches 0 (Kahn's algorithm).",
}


# Statuses a judge gives whatever the family: (status, sentence).
STATUSES = {
    "inexact": "Every gradient is close to the right one, but not exact, on a graph where a reverse sweep is exact: "
    "backward seems to estimate the slopes by nudging values and running the graph again (finite differences, "
    "extrapolated or not) instead of sweeping once in reverse. Start from the output's 1.0 and, node by node in "
    "reverse order, add the node's gradient times each local slope to its inputs.",
}
# The property families' answers, judged by the learner's own answer on a short input (judges.judge_carried_back).
_SPECIAL_CASE = (
    "The answer on the large input does not follow, block by block, from your own answer on a short input of the "
    "same blocks: the code seems to treat large graphs differently from small ones (a shortcut for large inputs, "
    "or a different path through the code). backward should do the same one sweep whatever the size of the graph."
)
SYMPTOMS.update(
    {(family, "inconsistent", ""): _SPECIAL_CASE for family in ("deep_graph", "linear_time", "no_mutation")}
)


MOST_NAMED = 4  # an answer that fits more misconceptions than this names none: the input tells too little


def _suspects():
    """(entry, namespace) for every buggy zoo entry, each built once per process."""
    return [(entry, zoo.namespace(entry.name)) for entry in zoo.entries() if entry.kind == "buggy"]


def _outcome(function, case):
    limit = sys.getrecursionlimit()
    try:
        return ("ok", function(*as_tuples(case.args), **copy.deepcopy(case.kwargs)))
    except Exception as err:  # noqa: BLE001 - a buggy implementation may raise anything
        return ("raised", type(err).__name__, isinstance(err, ValueError))
    finally:
        sys.setrecursionlimit(limit)  # a zoo entry may raise it: in this process it would let C recursion overflow


def _same(a, b):
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (a != a and b != b)
    return a == b


def _as_reply(outcome):
    """An in-process outcome as the sandbox child would have replied it (plain JSON values), or None if it cannot be."""
    if outcome[0] == "raised":
        return {
            "status": "raised",
            "error": {"type": outcome[1], "value_error": outcome[2], "message": "", "where": ""},
        }
    try:
        return {"status": "ok", "value": json.loads(json.dumps(outcome[1], allow_nan=True))}
    except (TypeError, ValueError, RecursionError):
        return None


def _replayable(case):
    return case is not None and not case.driver and tuple(case.decode) == GRAPH_FIRST and len(case.args[0]) <= SMALL


def _passes(check, case, function):
    """Whether ``function`` (a zoo entry's) gets ``case`` right, as the check's judge sees it; True when unsure."""
    reply = _as_reply(_outcome(function, case))
    if reply is None:
        return True
    return JUDGES[case.expect or check.expect](check, case, reply) is None


def _passed_before(check, case):
    """The fixed cases of ``check`` that come before ``case``: the learner's code got each of them right."""
    if callable(check.cases) or check.strategy is not None:
        return []
    cases = list(check.cases)
    return cases[: cases.index(case)] if case in cases else []


def candidates(check, failure):
    """The buggy zoo entries whose answer on the failing case is the learner's (and not the reference's), and
    which get right every earlier case of the check, as the learner's code did: the family's own first."""
    case = failure.case
    if not _replayable(case):
        return []
    learner = ("raised", failure.error_type) if failure.status == "raised" else ("ok", failure.got)
    if learner == ("ok", None):
        return []
    right = _outcome(getattr(reference_module(case.fn), case.fn), case)
    earlier = [c for c in _passed_before(check, case) if _replayable(c)]
    matches = []
    for entry, namespace in _suspects():
        if entry.function != case.fn:
            continue
        theirs = _outcome(namespace[case.fn], case)
        if theirs[0] != learner[0] or not _same(theirs[1], learner[1]):
            continue
        if theirs[0] == right[0] and _same(theirs[1], right[1]):
            continue
        if all(_passes(check, c, namespace[case.fn]) for c in earlier):
            matches.append(entry)
    matches.sort(key=lambda e: check.family not in e.fails)  # the family's own misconceptions first
    return matches


def tells_apart(check, failure):
    """Whether the failing case names at most one misconception: the runner prefers such a case when it shrinks."""
    return len(candidates(check, failure)) <= 1


def named(matches):
    """The sentence for the misconceptions an answer fits: the one, or the few this input cannot tell apart."""
    if not matches or len(matches) > MOST_NAMED:
        return ""
    if len(matches) == 1:
        return matches[0].description
    listed = " ".join(f"({k}) {e.description}" for k, e in enumerate(matches, 1))
    return f"The answer fits {len(matches)} misconceptions, which this input does not tell apart: {listed}"


def misconception(check, failure):
    """One plain sentence naming the likely misconception, or '' if none is known."""
    if failure.status in STATUSES:
        return STATUSES[failure.status]
    symptom = next(
        (
            SYMPTOMS[key]
            for key in (
                (check.id, failure.status, failure.error_type),
                (check.id, failure.status, ""),
                (check.family, failure.status, failure.error_type),
                (check.family, failure.status, ""),
            )
            if key in SYMPTOMS
        ),
        "",
    )
    if symptom and not (failure.status in ("slow", "timeout") and growth.LINEAR in failure.summary):
        return symptom  # a sentence about a sweep too slow, unless the sizes measured showed it linear
    return named(candidates(check, failure))
