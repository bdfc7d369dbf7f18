"""Name the misconception behind a failure.

The zoo's buggy implementations are our own code, so the grader may run them in its
own process. When the learner's answer on the failing input equals a buggy
implementation's answer (and that answer differs from the reference's), the
learner most likely holds that misconception. Failures that leave no answer to
compare (a crash on a deep chain, a slow sweep) are named from their symptom.
"""

import copy
import math
import sys

from graphcourse import zoo
from graphcourse.checks import GRAPH_FIRST
from graphcourse.judges import as_tuples, reference_module

SMALL = 60  # only graphs up to this many nodes are replayed on the zoo

# Symptoms that name a misconception without replaying anything: (family, status, error type).
SYMPTOMS = {
    ("deep_graph", "raised", "RecursionError"): "The sweep is recursive: each node calls into the next, so a long "
    "chain runs out of stack. Raising the recursion limit does not help: the grader keeps Python's default. Walk "
    "the graph with a loop over reversed(graph) instead.",
    ("deep_graph", "died", ""): "The process crashed on a long chain, which is what deep recursion does. Walk the "
    "graph with a loop over reversed(graph) instead of recursing.",
    ("linear_time", "slow", ""): "The sweep does work that grows with the whole graph at every node (for example "
    "scanning the graph for each node's readers, or searching a list), so its time grows with the square of "
    "its size. Push each node's gradient to its inputs in one pass over reversed(graph).",
    ("linear_time", "timeout", ""): "The sweep does work that grows with the whole graph at every node, so its time "
    "grows with the square of its size. Push each node's gradient to its inputs in one pass over reversed(graph).",
    ("order_deep", "raised", "RecursionError"): "The ordering pass is recursive: placing a node first calls itself on "
    "each input, so a long chain runs out of stack (the grader keeps Python's limit of 1,000). Keep your own stack "
    "in a list, or count each node's unfinished inputs as Kahn's algorithm does.",
    ("order_linear_time", "slow", ""): "The pass looks through the records again and again for a node whose inputs "
    "are all listed, so its time grows with the square of their number. Count each node's unfinished inputs once, "
    "and queue a node when its count reaches 0 (Kahn's algorithm).",
    ("trace_deep", "raised", "RecursionError"): "Something in the trace recurses once per entry (walking back from "
    "the output through the inputs, say), so a run of 10,000 operations runs out of stack. The tape is already in "
    "the order the operations ran: hand back its graph as it is.",
    ("tree_size_deep", "raised", "RecursionError"): "tree_size calls itself on each input, so a chain of 10,000 "
    "nodes runs out of stack. One pass over the graph in its order is enough: each node's size is 1 plus the sizes "
    "of its inputs, which are known by then.",
    ("checkpoint_linear_time", "slow", ""): "The sweep recomputes the values it needs from the leaves (or from far "
    "back) again for every node, so its time grows with the square of the chain. Recompute each segment once, from "
    "the checkpoint just before it, and keep its values while the sweep walks back through that segment.",
    ("checkpoint_linear_time", "timeout", ""): "The sweep recomputes the values it needs from the leaves (or from far "
    "back) again for every node, so its time grows with the square of the chain. Recompute each segment once, from "
    "the checkpoint just before it, and keep its values while the sweep walks back through that segment.",
    ("gradient_graph_deep", "raised", "RecursionError"): "gradient_graph calls itself once per name (building a "
    "name's gradient from its readers' gradients, say), so a chain of 10,000 nodes runs out of stack. One loop over "
    "reversed(graph) reaches every reader of a name before the name itself.",
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
SYMPTOMS.update({(family, "inconsistent", ""): _SPECIAL_CASE for family in ("deep_graph", "linear_time", "no_mutation")})


def _suspects():
    """(entry, namespace) for every buggy zoo entry, each built once per process."""
    return [(entry, zoo.namespace(entry.name)) for entry in zoo.entries() if entry.kind == "buggy"]


def _outcome(function, case):
    limit = sys.getrecursionlimit()
    try:
        return ("ok", function(*as_tuples(case.args), **copy.deepcopy(case.kwargs)))
    except Exception as err:  # noqa: BLE001 - a buggy implementation may raise anything
        return ("raised", type(err).__name__)
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


def misconception(check, failure):
    """One plain sentence naming the likely misconception, or '' if none is known."""
    if failure.status in STATUSES:
        return STATUSES[failure.status]
    symptom = SYMPTOMS.get((check.family, failure.status, failure.error_type)) or SYMPTOMS.get(
        (check.family, failure.status, "")
    )
    if symptom:
        return symptom
    case = failure.case
    if case is None or case.driver or tuple(case.decode) != GRAPH_FIRST or len(case.args[0]) > SMALL:
        return ""  # only calls on small graphs are replayed on the zoo
    learner = ("raised", failure.error_type) if failure.status == "raised" else ("ok", failure.got)
    if learner == ("ok", None):
        return ""
    right = _outcome(getattr(reference_module(case.fn), case.fn), case)
    matches = []
    for entry, namespace in _suspects():
        if entry.function != case.fn:
            continue
        theirs = _outcome(namespace[case.fn], case)
        if theirs[0] == learner[0] and _same(theirs[1], learner[1]) and not (
            theirs[0] == right[0] and _same(theirs[1], right[1])
        ):
            matches.append(entry)
    if not matches:
        return ""
    matches.sort(key=lambda e: check.family not in e.fails)  # the family's own misconceptions first
    return matches[0].description
