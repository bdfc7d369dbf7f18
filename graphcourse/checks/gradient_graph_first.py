"""Evaluating gradient_graph's graph2 gives lesson 2's first derivatives, on graphs over lesson 1's eight ops and at any
leaves."""

import functools
import json
import math
import random
import zlib

from autograder.grading.compare import Failure, clip, no_answer, short
from exercises import strategies
from exercises.strategies import st  # Hypothesis is imported when the strategy is built
from graphcourse.checks import GRAPH_FIRST, Case, Check, as_json_graph
from solutions import graph as sweeps
from solutions.symbolic import OPS

RULE = (
    "gradient_graph(graph, output=None) returns (graph2, grads): evaluating graph2 at any leaves gives, at grads[n], "
    "dL/dn as lesson 2's backward gives it (to 1e-9 relative), for every name n that L depends on."
)
TOLERANCE = 1e-9
ARITY = {op: rule.__code__.co_argcount for op, rule in OPS.items()}  # one: 0, the unary ops: 1, the others: 2
SEPARATOR = "\t"  # an entry as the drivers send it: name, op and inputs joined by a tab (drivers/symbolic.py)
BIG = 1e6  # leaves are drawn again where the reference's values or gradients grow past this
LARGE = 1_000  # graphs of more nodes are evaluated at one choice of leaves (derivatives_failure)


def symbolic_call(graph, label, output=None, driver="symbolic_graph", **extra):
    """A Case running a public program of graphcourse/drivers/symbolic.py on ``graph`` (its first argument)."""
    return Case(
        "gradient_graph", (as_json_graph(graph), output), label=label, driver=driver, decode=GRAPH_FIRST, **extra
    )


def as_graph(graph):
    return [(name, op, list(inputs)) for name, op, inputs in graph]


def names_of(graph):
    """Every name the graph reads or produces, in order of appearance."""
    found = {}
    for name, _op, inputs in graph:
        found.update(dict.fromkeys(inputs))
        found[name] = None
    return list(found)


def output_of(graph, output):
    return graph[-1][0] if output is None else output


def reached(graph, output):
    """The names L depends on, L included."""
    inputs = {name: list(reads) for name, _op, reads in graph}
    found, todo = {output}, [output]
    while todo:
        for read in inputs.get(todo.pop(), ()):
            if read not in found:
                found.add(read)
                todo.append(read)
    return found


def below(graph, output):
    """The names L (output, default the last node) depends on, in order of appearance, L itself left out: the names
    whose derivatives the value families judge (L's own node is gradient_graph_names' business)."""
    out = output_of(graph, output)
    depends = reached(graph, out)
    return [name for name in names_of(graph) if name in depends and name != out]


def _key(graph, output):
    return json.dumps([as_json_graph(graph), output])


@functools.lru_cache(maxsize=4096)
def _points(key):
    graph, output = json.loads(key)
    graph = as_graph(graph)
    output = output_of(graph, output)
    produced = {name for name, _op, _inputs in graph}
    leaves = [name for name in names_of(graph) if name not in produced]
    rng, found = random.Random(zlib.crc32(key.encode())), []
    for _ in range(40):
        point = {leaf: round(rng.choice((-1, 1)) * rng.uniform(0.4, 1.6), 3) for leaf in leaves}
        try:
            values = sweeps.evaluate(graph, point)
            grads = sweeps.backward(graph, values, output)
        except (ZeroDivisionError, OverflowError, ValueError):
            continue
        if all(math.isfinite(v) and abs(v) <= BIG for v in (*values.values(), *grads.values())):
            found.append(point)
            if len(found) == 2:
                return tuple(found)
    return ()


def points(graph, output=None):
    """Where a case's graph2 is evaluated: two choices of leaves drawn with a seed of the graph's own (the same every
    time), at which lesson 1's evaluate and lesson 2's backward run and stay moderate; () if 40 draws find none."""
    return _points(_key(graph, output))


@functools.lru_cache(maxsize=4096)
def _reference(key, point):
    graph, output = json.loads(key)
    graph = as_graph(graph)
    return sweeps.backward(graph, sweeps.evaluate(graph, dict(json.loads(point))), output_of(graph, output))


def reference_gradients(graph, output, point):
    """lesson 2's backward on the graph at ``point``: {name: dL/dname} (shared: never change it)."""
    return _reference(_key(graph, output), json.dumps(point, sort_keys=True))


def read_answer(case, sent, graph):
    """(graph2, grads, None) from a driver's [entries, grads] for ``graph``, every part checked; else (None, None, the
    Failure). A new node may read any name graph2 defines, listed before or after it: gradient_graph_defined_first
    asks for the order; every other family evaluates the new nodes in an order that computes."""
    if type(sent) is str:
        return None, None, Failure(case, clip(sent, 200))
    if type(sent) is not list or len(sent) != 2:
        return None, None, Failure(case, f"gradient_graph should return (graph2, grads), but returned {short(sent)}")
    entries, grads = sent
    for part in (entries, grads):
        if type(part) is str:
            return None, None, Failure(case, clip(part, 200))
    if type(entries) is not list or type(grads) is not dict:
        return None, None, Failure(case, "gradient_graph's answer could not be read as (graph2, grads)")
    graph2 = []
    for k, entry in enumerate(entries):
        if type(entry) is not str:
            shown = entry[0] if type(entry) is list and entry and type(entry[0]) is str else short(entry)
            return (
                None,
                None,
                Failure(
                    case,
                    f"entry {k} of graph2 should be (name, op, inputs): a name, an op and a "
                    f"list of names, all strings without a tab, got {short(shown, 120)}",
                ),
            )
        name, *rest = entry.split(SEPARATOR)
        if not rest:
            return (
                None,
                None,
                Failure(case, f"entry {k} of graph2 could not be read as (name, op, inputs): {short(entry, 120)}"),
            )
        graph2.append((name, rest[0], rest[1:]))
    original, n = as_graph(graph), len(graph)
    if graph2[:n] != original:
        k = next(k for k in range(n) if k >= len(graph2) or graph2[k] != original[k])
        got = short(graph2[k]) if k < len(graph2) else "nothing"
        return (
            None,
            None,
            Failure(
                case,
                f"graph2 should start with the nodes of graph, unchanged: its entry {k} is "
                f"{got}, the graph's is {short(original[k])}",
            ),
        )
    old, new = set(names_of(original)), set()
    for name, op, inputs in graph2[n:]:
        shown = short((name, op, inputs), 120)
        if name in old:
            return (
                None,
                None,
                Failure(
                    case,
                    f"the new node {shown} reuses the name {name!r}, which the graph already "
                    "uses: new nodes need fresh names, found nowhere in graph",
                ),
            )
        if name in new:
            return None, None, Failure(case, f"the name {name!r} is given to two new nodes of graph2")
        if op not in OPS:
            return None, None, Failure(case, f"the new node {shown} uses {op!r}, which is not an op of OPS")
        if len(inputs) != ARITY[op]:
            return (
                None,
                None,
                Failure(case, f"the new node {shown} gives {op} {len(inputs)} inputs; it takes {ARITY[op]}"),
            )
        new.add(name)
    defined = old | new
    stray = next(((entry, read) for entry in graph2[n:] for read in entry[2] if read not in defined), None)
    if stray:
        return (
            None,
            None,
            Failure(case, f"the new node {short(stray[0], 120)} reads {stray[1]!r}, which graph2 never defines"),
        )
    unknown = next(((name, node) for name, node in grads.items() if node not in defined), None)
    if unknown:
        return (
            None,
            None,
            Failure(case, f"grads maps {unknown[0]!r} to {short(unknown[1])}, which is no name of graph2"),
        )
    return graph2, grads, None


def late_read(graph2, n):
    """(new node, name) for the first new node that reads a name defined only after it, or None."""
    known = set(names_of(graph2[:n]))
    for name, op, inputs in graph2[n:]:
        late = next((read for read in inputs if read not in known), None)
        if late is not None:
            return (name, op, inputs), late
        known.add(name)
    return None


def computable(graph2, n):
    """graph2 with its new nodes in an order in which each reads only names before it, or None if they read each
    other in a cycle."""
    if late_read(graph2, n) is None:
        return graph2
    known = set(names_of(graph2[:n]))
    waiting = {name: sum(read not in known for read in inputs) for name, _op, inputs in graph2[n:]}
    readers, entry_of = {}, {}
    for entry in graph2[n:]:
        entry_of[entry[0]] = entry
        for read in entry[2]:
            if read not in known:
                readers.setdefault(read, []).append(entry[0])
    ordered, ready = list(graph2[:n]), [name for name, count in waiting.items() if count == 0]
    while ready:
        name = ready.pop()
        ordered.append(entry_of[name])
        for reader in readers.get(name, ()):
            waiting[reader] -= 1
            if waiting[reader] == 0:
                ready.append(reader)
    return ordered if len(ordered) == len(graph2) else None


def values_at(case, graph2, n, leaves):
    """(graph2's values at ``leaves``, by lesson 1's evaluate, None), or (None, the Failure)."""
    ordered = computable(graph2, n)
    if ordered is None:
        return None, Failure(case, "the new nodes of graph2 read each other in a cycle, so graph2 cannot be evaluated")
    try:
        return sweeps.evaluate(ordered, dict(leaves)), None
    except Exception as err:  # noqa: BLE001 - a learner's graph2 may divide by zero, overflow, ...
        return None, Failure(
            case,
            f"evaluating graph2 at {short(leaves)} raises {type(err).__name__} "
            f"({short(str(err), 100)}), where lesson 1's evaluate runs the graph itself",
        )


def is_close(got, want, tolerance=TOLERANCE):
    return type(got) in (int, float) and math.isclose(got, want, rel_tol=tolerance, abs_tol=tolerance)


def derivatives_failure(case, graph, output, graph2, grads, judged):
    """None when, at the graph's points, graph2's node for each judged name holds lesson 2's dL/dname.

    A graph of more than LARGE nodes (the deep chain) is evaluated at its first point only: the small graphs show
    that graph2 holds no values, and the large one is there for its depth."""
    key = _key(graph, output)
    chosen = _points(key)
    for point in chosen[:1] if len(graph) > LARGE else chosen:
        values, failure = values_at(case, graph2, len(graph), point)
        if failure:
            return failure
        want = _reference(key, json.dumps(point, sort_keys=True))
        for name in judged:
            if name not in grads:
                return Failure(case, f"grads has no entry for {name!r}")
            got = values[grads[name]]
            if not is_close(got, want[name]):
                return Failure(
                    case,
                    f"at {short(point)}, the node {grads[name]!r} that grads gives for dL/d{name} holds "
                    f"{short(got)}, but lesson 2's backward gives {want[name]!r}",
                )
    return None


def answer_failure(case, reply, judged=None):
    """The driver's answer read and checked (read_answer), and the judged names' derivatives right (by default every
    name L depends on but L itself, whose node is gradient_graph_names' business); None when all is right."""
    failure = no_answer(case, reply)
    if failure:
        return failure
    graph, output = case.args[0], case.args[1]
    graph2, grads, failure = read_answer(case, reply.get("value"), graph)
    if failure:
        return failure
    return derivatives_failure(case, graph, output, graph2, grads, below(graph, output) if judged is None else judged)


def judge_first(check, case, reply):
    return answer_failure(case, reply)


@st.composite
def _random_cases(draw):
    graph, _leaves = draw(strategies.graphs(max_leaves=3, max_nodes=8), label="graph")
    output = draw(st.sampled_from([None, None, graph[0][0]]), label="output")
    return symbolic_call(graph, label="a random graph over lesson 1's eight ops", output=output)


def random_cases():
    return _random_cases().filter(lambda case: bool(points(case.args[0], case.args[1])))


# One node of each op, none reading a name twice, and relu on either side of its kink: neither fan-out
# (gradient_graph_fan_out's business) nor a name L does not depend on (gradient_graph_names') plays a part.
EACH_OP = [
    ([("y", "add", ["u", "v"])], "y = u + v"),
    ([("y", "sub", ["u", "v"])], "y = u - v"),
    ([("y", "mul", ["u", "v"])], "y = u*v: each factor's slope is the other factor"),
    ([("y", "div", ["u", "v"])], "y = u/v"),
    ([("y", "sq", ["u"])], "y = u**2"),
    ([("y", "tanh", ["u"])], "y = tanh(u): its slope 1 - y**2 reads its own output"),
    ([("s", "sq", ["u"]), ("y", "relu", ["s"])], "s = u**2, y = relu(s): relu's positive side"),
    ([("s", "sq", ["u"]), ("n", "neg", ["s"]), ("y", "relu", ["n"])], "y = relu(-u**2): relu's flat side"),
    ([("y", "neg", ["u"])], "y = -u"),
    ([("p", "mul", ["a", "b"]), ("z", "add", ["p", "c"]), ("L", "sq", ["z"])], "L = (a*b + c)**2"),
    (
        [("p", "mul", ["a", "b"]), ("q", "tanh", ["p"]), ("r", "div", ["q", "c"]), ("L", "sub", ["r", "e"])],
        "L = tanh(a*b)/c - e",
    ),
]

CHECKS = [
    Check(
        "gradient_graph_first/each_op",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_first",
        cases=tuple(symbolic_call(graph, label=label) for graph, label in EACH_OP),
    ),
    Check(
        "gradient_graph_first/random",
        "gradient_graph",
        2,
        RULE,
        "gradient_graph_first",
        strategy=random_cases,  # built when its examples are drawn: Hypothesis is imported then
        examples=30,
    ),
]

JUDGES = {"gradient_graph_first": judge_first}
