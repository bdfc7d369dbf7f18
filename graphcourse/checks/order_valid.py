"""topological_order lists every node after the nodes it reads, on records given in any order: any valid order
passes."""

import random
import re

from autograder.grading import properties
from autograder.grading.compare import Failure, no_answer, per_case, short
from exercises import strategies
from exercises.strategies import st  # Hypothesis is imported when the strategy is built
from graphcourse.checks import Case, Check

RULE = (
    "topological_order(nodes) returns a graph listing every node of nodes, each after every input of it that is a "
    "node, whatever order the records come in; any such order is right."
)
RECORDS_FIRST = ((0, "records"),)  # the child decodes the records as name -> (op, inputs) (builders.CODECS)
SEPARATOR = " "  # how the driver sends an entry: "name op input ..." (graphcourse/drivers/order.py)


def records(entries):
    """Records in JSON form, {name: [op, inputs]}, in the order ``entries`` lists them."""
    return {name: [op, list(inputs)] for name, op, inputs in entries}


def order_call(nodes, label, driver="order_graph", **extra):
    """A Case running topological_order on ``nodes`` (JSON records) through a driver of drivers/order.py."""
    return Case("topological_order", (nodes,), label=label, driver=driver, decode=RECORDS_FIRST, **extra)


def backwards(entries):
    """The records of a graph listed in computable order, given last node first."""
    return records(reversed(entries))


def _precedence(case):
    """(input, node) for every read of a node by another node."""
    nodes = case.args[0]
    return [(i, name) for name, (_op, inputs) in nodes.items() for i in inputs if i in nodes and i != name]


def _leaves(case):
    nodes = case.args[0]
    return frozenset(i for _op, inputs in nodes.values() for i in inputs if i not in nodes)


precedence, leaves_of = per_case(_precedence), per_case(_leaves)


def entries_of(case, reply):
    """([(name, op, inputs)], None) read from the driver's answer, or (None, the Failure that says what is wrong)."""
    failure = no_answer(case, reply)
    if failure:
        return None, failure
    got = reply.get("value")
    if type(got) is dict and type(got.get("returned")) is str:
        return None, Failure(
            case, f"topological_order should return a list of (name, op, inputs), but returned a {got['returned'][:60]}"
        )
    if type(got) is not list:
        return None, Failure(case, "topological_order's answer could not be read as a list of (name, op, inputs)")
    if set(map(type, got)) <= {str}:  # the usual answer, read at C speed: 200,000 entries are common
        words = [item.split(SEPARATOR) for item in got]
        if min(map(len, words), default=2) >= 2:
            return [(w[0], w[1], w[2:]) for w in words], None
    entries = []  # something is wrong: find the first entry that says what
    for k, item in enumerate(got):
        if type(item) is not str:
            shown = item[0] if type(item) is list and item and type(item[0]) is str else short(item)
            return None, Failure(
                case,
                f"entry {k} of the result should be (name, op, inputs): a name, an op and a list "
                f"of names, all strings, got {short(shown, 120)}",
            )
        words = item.split(SEPARATOR)
        if len(words) < 2:
            return None, Failure(case, f"entry {k} of the result should be (name, op, inputs), got {short(item, 120)}")
        entries.append((words[0], words[1], words[2:]))
    return entries, None


FIRST_WORDS = re.compile(f"^([^{SEPARATOR}\n]*){SEPARATOR}", re.MULTILINE)


def names_of(case, reply):
    """(the names the answer lists, in its order, or None; the Failure that says what is wrong, or None).

    The names only, as entries_of reads them: when every entry is a string of at least two words (the usual answer,
    often of 200,000 entries), they are read from one text at C speed, with no entry split apart.
    """
    got = reply.get("value") if reply.get("status") == "ok" else None
    if type(got) is list and got and set(map(type, got)) == {str}:
        text = "\n".join(got)
        if text.count("\n") == len(got) - 1:  # no entry holds a line break: a line is an entry
            names = FIRST_WORDS.findall(text)
            if len(names) == len(got):
                return names, None
    entries, failure = entries_of(case, reply)
    return (None, failure) if failure else ([name for name, _op, _inputs in entries], None)


def order_failure(case, reply, once=False, no_leaves=False):
    """None when the answer lists every node in a valid order, else the Failure.

    Listing a leaf, or a node more than once, is order_leaves' and order_once's business: other families
    read past them (leaves dropped, a node's first place kept) unless ``no_leaves`` or ``once`` asks.
    """
    names, failure = names_of(case, reply)
    if failure:
        return failure
    leaves = leaves_of(case)
    listed = [name for name in names if name in leaves]
    if no_leaves and listed:
        return Failure(
            case,
            f"the result lists {short(listed[0])}, which is a leaf (not a key of nodes): only nodes are listed",
            got=names,
        )
    names = [name for name in names if name not in leaves]
    if once:
        seen = set()
        twice = next((name for name in names if name in seen or seen.add(name)), None)
        if twice is not None:
            return Failure(
                case,
                f"the result lists {short(twice)} more than once: every node comes exactly once, "
                "however many times it is read",
                got=names,
            )
    else:
        names = list(dict.fromkeys(names))
    return properties.in_valid_order(case, {"status": "ok", "value": names}, list(case.args[0]), precedence(case))


def judge_valid(check, case, reply):
    return order_failure(case, reply)


@st.composite
def shuffled_records(draw):
    """Records of a random graph, renamed at random and given in an order in which they cannot be computed."""
    graph, _leaves = draw(strategies.graphs(max_leaves=3, max_nodes=10), label="graph")
    renamed = dict(
        zip((name for name, _op, _inputs in graph), draw(st.permutations([f"v{k}" for k in range(len(graph))])))
    )
    entries = [(renamed[name], op, [renamed.get(i, i) for i in inputs]) for name, op, inputs in graph]
    random.Random(draw(st.integers(0, 2**16), label="shuffle seed")).shuffle(entries)
    placed = set()
    for name, _op, inputs in entries:
        if any(i in renamed.values() and i not in placed for i in inputs):
            break
        placed.add(name)
    else:  # shuffled into a valid order by chance: given backwards, it is not (unless no node reads a node)
        entries.reverse()
    return order_call(records(entries), label="random records, given in an order that cannot be computed")


# Lesson 1's L = (a*b + a)**2 and lesson 4's workers' records, given in orders that neither compute nor sort into
# a valid order: names say nothing about the order.
ABA = [("p", "mul", ["a", "b"]), ("q", "add", ["p", "a"]), ("L", "sq", ["q"])]
WORKERS = {"u": ["mul", ["x", "y"]], "w": ["add", ["u", "v"]], "v": ["sq", ["x"]], "L": ["tanh", ["w"]]}

CHECKS = [
    Check(
        "order_valid/given_backwards",
        "topological_order",
        3,
        RULE,
        "order_valid",
        cases=(
            order_call(backwards(ABA), label="L = (a*b + a)**2, its records given L first"),
            order_call(WORKERS, label="two workers' logs put one after the other: u, w, v, L"),
        ),
    ),
    Check(
        "order_valid/shuffled",
        "topological_order",
        3,
        RULE,
        "order_valid",
        strategy=shuffled_records,  # built when its examples are drawn: Hypothesis is imported then
        examples=30,
    ),
]

JUDGES = {"order_valid": judge_valid}
