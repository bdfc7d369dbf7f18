"""What the checks need that no submission changes, each worked out once per process or read from the course's store:
the cases built at run time, the strategies of property checks, and the reference's time and peak memory."""

from autograder.course import active
from autograder.grading import prepared
from autograder.grading.submission import Chunk
from autograder.sandbox.sandbox import Sandbox

_REFERENCE_TIMES = {}
_REFERENCE_MEMORY = {}


def reference_replies(case, repeats=1, **measure):
    """The reference's replies to `case`, called `repeats` times in one fresh sandbox child, as a learner's would be."""
    source = open(active.part("judges").reference_module(case.fn).__file__, encoding="utf-8").read()
    with Sandbox([Chunk("reference", source)], reference=True) as sandbox:
        return [
            sandbox.call(
                case.fn, list(case.args), case.kwargs, seconds=60, built=case.built, **measure, **case.request()
            )
            for _ in range(repeats)
        ]


def reference_memory(case):
    """The reference's peak memory on `case` (bytes above a fresh child's), through the same sandbox, once per
    process."""
    key = (case.fn, case.label)
    if key not in _REFERENCE_MEMORY:
        (reply,) = reference_replies(case, measure_memory=True)
        _REFERENCE_MEMORY[key] = reply.get("memory_bytes") if reply.get("status") == "ok" else None
    return _REFERENCE_MEMORY[key]


def known_seconds(case):
    """The reference's CPU time for `case` when it is already known (the store's, or measured in this process), else
    None: nothing is measured."""
    key = (case.fn, case.label)
    return _REFERENCE_TIMES.get(key, store().seconds.get(key))


def reference_seconds(case, repeats=3):
    """The reference's best CPU time for `case`, through the same sandbox, measured once per process."""
    key = (case.fn, case.label)
    if key not in _REFERENCE_TIMES and key in store().seconds:
        _REFERENCE_TIMES[key] = store().seconds[key]
    if key not in _REFERENCE_TIMES:
        replies = reference_replies(case, repeats, measure_cpu=True)
        _REFERENCE_TIMES[key] = min(reply.get("cpu_seconds", reply["wall_seconds"]) for reply in replies)
    return _REFERENCE_TIMES[key]


_STRATEGIES = {}  # id(a check's strategy as given) -> (it, the Hypothesis strategy)


def strategy_of(check):
    """The Hypothesis strategy of a property check: its ``strategy``, or what that returns when it is a function.

    A course may give the strategy as a function of no arguments, so that Hypothesis is imported (and the
    strategy built) only when examples are drawn or shrunk, never by a grader that replays stored ones.
    """
    given = check.strategy
    if not callable(given):
        return given
    cached = _STRATEGIES.get(id(given))
    if cached is None or cached[0] is not given:
        cached = _STRATEGIES[id(given)] = (given, given())
    return cached[1]


_INPUTS = {}  # id(check) -> (check, cases): the cases of a check whose inputs are built at run time


def inputs(check):
    """A check's cases: the fixed ones, or those built at run time, taken from the store when it holds them."""
    if not callable(check.cases):
        return check.cases
    cached = _INPUTS.get(id(check))
    if cached is None or cached[0] is not check:
        stored = store().stored_inputs(check)
        cached = _INPUTS[id(check)] = (check, stored if stored is not None else check.inputs())
    return cached[1]


_STORE = []  # the store this process grades with, loaded when first needed


def store():
    """What the course's store holds (autograder/grading/prepared.py): loaded and verified once per process."""
    if not _STORE:
        _STORE.append(prepared.load(active.part("checks").all_checks()))
    return _STORE[0]


def use(held):
    """Grade with ``held`` (a prepared.Prepared) from now on, in place of the course's store; forget what was worked
    out."""
    _STORE[:] = [held]
    for cache in (_INPUTS, _REFERENCE_TIMES):
        cache.clear()
