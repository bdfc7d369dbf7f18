"""stale_reads lists the nodes that saved a value replaced at or after their own position; a replacement before a node
ran is harmless."""

import dataclasses

from autograder.grading.compare import Failure, no_answer, short
from graphcourse.checks import Check, call

RULE = (
    "stale_reads(graph, overwritten) lists, in graph order and each once, the nodes that save (as saved_for_backward "
    "says) a name replaced at or after the node's own position; a replacement before the node ran is harmless."
)
PAIRS = ((0, "graph"), (1, "pairs"))  # the child decodes the replacements as (position, name) tuples (builders.CODECS)
# Positions 0..4: p saves w and x, y saves its own output, z saves nothing, L saves z and w, out saves nothing.
GRAPH = [
    ("p", "mul", ["w", "x"]),
    ("y", "tanh", ["p"]),
    ("z", "add", ["y", "b"]),
    ("L", "mul", ["z", "w"]),
    ("out", "neg", ["L"]),
]


def stale_call(overwritten, label, graph=GRAPH, **extra):
    case = call("stale_reads", graph, [list(pair) for pair in overwritten], label=label, **extra)
    return dataclasses.replace(case, decode=PAIRS)


def _saved(graph):
    from solutions.memory import saved_for_backward

    return saved_for_backward([(name, op, list(inputs)) for name, op, inputs in graph])


def stale_failure(case, reply):
    """None when the answer is the reference's list; else a Failure naming a node and the replacement that decides
    it."""
    from graphcourse.judges import reference_answer  # here, not at import: judges.py imports the families

    failure = no_answer(case, reply)
    if failure:
        return failure
    got, want = reply.get("value"), reference_answer(case)
    if type(got) is not list or not all(type(name) is str for name in got):
        return Failure(case, f"stale_reads should return a list of node names, but returned {short(got)}")
    if got == want:
        return None
    graph, overwritten = case.args
    position = {name: k for k, (name, _op, _inputs) in enumerate(graph)}
    saved = _saved(graph)
    missing = [name for name in want if name not in got]
    if missing:
        name = missing[0]
        at, replaced = next(
            (at, n) for at, n in sorted(overwritten, reverse=True) if n in saved[name] and at >= position[name]
        )
        when = "right after it ran" if at == position[name] else f"at position {at}, after it ran"
        return Failure(
            case,
            f"{name} (position {position[name]}) saves {replaced!r}, which was replaced {when}: {name} "
            f"saved the old value, so it is stale; expected {short(want)}",
            got=got,
        )
    extra = [name for name in got if name not in want]
    if extra:
        name = extra[0]
        if name not in position:
            return Failure(case, f"the result lists {short(name)}, which is not a node of the graph", got=got)
        earlier = [(at, n) for at, n in overwritten if n in saved[name]]
        why = (
            f"{short(earlier[0][1])} was replaced at position {earlier[0][0]}, before {name} ran and saved the new "
            f"value"
            if earlier
            else f"no name it saves ({short(saved[name])}) was replaced"
        )
        return Failure(
            case, f"{name} (position {position[name]}) is listed, but {why}; expected {short(want)}", got=got
        )
    return Failure(
        case, f"expected {short(want)}: the stale nodes in graph order, each once; got {short(got)}", got=got
    )


def judge_stale(check, case, reply):
    return stale_failure(case, reply)


# Every replacement here is of a name that only products save and read, so what a node saves and what it reads agree
# (stale_saved's business); each check has a case with a stale node, so an answer that ignores the input fails.
CHECKS = [
    Check(
        "stale_position/after",
        "stale_reads",
        1,
        RULE,
        "stale_list",
        cases=(
            stale_call([(1, "x")], label="x replaced after position 1: p, at 0, saved it"),
            stale_call([(4, "z")], label="z replaced after position 4: L, at 3, saved it"),
        ),
    ),
    Check(
        "stale_position/at",
        "stale_reads",
        2,
        RULE,
        "stale_list",
        cases=(
            stale_call([(0, "x")], label="x replaced right after p ran, at p's own position 0"),
            stale_call([(3, "w")], label="w replaced right after L ran, at L's own position 3"),
        ),
    ),
    Check(
        "stale_position/before",
        "stale_reads",
        2,
        RULE,
        "stale_list",
        cases=(
            stale_call([(2, "z"), (4, "x")], label="z replaced at position 2, before L (at 3) ran; x after p saved it"),
            stale_call([(1, "w")], label="w replaced at position 1: after p (at 0) saved it, before L (at 3) ran"),
        ),
    ),
    Check(
        "stale_position/several",
        "stale_reads",
        1,
        RULE,
        "stale_list",
        cases=(
            stale_call([(4, "w"), (1, "x"), (4, "w")], label="w twice and x: p and L, each once"),
            stale_call([(4, "z"), (4, "x")], label="z (saved by L) replaced, then x (saved by p): in graph order"),
            stale_call([(4, "z"), (1, "z")], label="z replaced after L saved it, and earlier too"),
        ),
    ),
]

JUDGES = {"stale_list": judge_stale}
