"""Grade every zoo entry, the reference and the stub once per test session, two at a time.

A buggy entry redefines one function and keeps the reference's others, so it is graded on the
checks of every function but the ones it leaves as the reference wrote them: the backward
families (a 3,000-node chain, timed sweeps, random graphs) run only for the entries that
change backward, and for the reference, the stub and the correct styles, which define it all.
"""

from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache

from autograder.authoring.stubs import stub_source
from autograder.course.lessons import module_of
from autograder.course.paths import reference_source
from graphcourse import zoo
from graphcourse.checks import all_checks


def modules():
    """The lesson modules that have hidden checks."""
    return sorted({module_of(c.function) for c in all_checks()})


def other_modules(module):
    """The functions of every lesson module but ``module``: a version of one module is graded on its own."""
    return {c.function for c in all_checks() if module_of(c.function) != module}


def unchanged_functions(entry):
    """The functions a zoo entry leaves exactly as the reference has them, or that are not of its module."""
    if entry.kind != "buggy":
        return other_modules(entry.module)
    defined = zoo.defined_functions(entry)
    return {c.function for c in all_checks()} - defined


CAP_SECONDS = 3.0  # the longest call of an entry that runs into time limits (Limits.longest_call_seconds)
GROWTH_CAP_SECONDS = 12.0  # the same for such an entry's linear_growth checks (a right answer's largest call: ~1 s CPU)
FAILING_GROWTH_CAP_SECONDS = 5.0  # and for those of a family it must fail: a ready list emptied with pop(0) takes
# about 3 s of CPU on the largest wide records, and a scan for a ready node would take hours
GROWTH_BUDGET_SECONDS = 150.0  # all of one such entry's linear_growth checks together
LONG_CALL_SECONDS = 1.0  # a fixed call allowed longer than this is one a slow or recursive sweep runs into


@lru_cache(maxsize=1)
def timed_families():
    """The families an entry fails by waiting for a time limit: every lesson's timed checks (linear_time) and
    the ones whose calls may run longer than LONG_CALL_SECONDS (the deep chains)."""
    return {
        c.family
        for c in all_checks()
        if c.expect == "linear_time"
        or (c.strategy is None and any((case.seconds or 0) > LONG_CALL_SECONDS for case in c.inputs()))
    }


def sources():
    """{name: (module source, functions not to grade)} for the reference, the stub and every zoo entry,
    the longest to grade first: the ones that run into time limits, then those that define backward."""
    named = {}
    for module in modules():  # each module's reference and stub, on that module's checks ("reference:tape")
        text, skipped = reference_source(module), tuple(sorted(other_modules(module)))
        suffix = "" if module == "graph" else f":{module}"
        named[f"reference{suffix}"], named[f"stub{suffix}"] = (text, skipped), (stub_source(text), skipped)
    for entry in zoo.entries():
        named[entry.name] = (zoo.source(entry), tuple(sorted(unchanged_functions(entry))))
    slow = timed_out()
    return dict(sorted(named.items(), key=lambda item: (item[0] not in slow, len(item[1][1]))))


@lru_cache(maxsize=1)
def timed_out():
    """The entries that may run into the time limits of a timed or deep family (timed_families)."""
    return {e.name for e in zoo.entries() if e.kind == "buggy" and not e.scores_zero and timed_families() & e.allowed()}


def grade_source(item):
    """Grade one source; return plain data: {check id: (score, points, summary, misconception)}."""
    from autograder.grading.runner import grade
    from autograder.grading.submission import Chunk, Submission
    from autograder.sandbox.limits import Limits

    # shrink=False: a property check reports the first failing example it replays instead of asking
    # Hypothesis for the smallest one. Shrinking only makes the example in the message smaller, never
    # changes a score, and costs about a second per entry that fails such a check;
    # tests/test_sandbox_bounds.py holds the shrunk example to what Hypothesis alone reports.
    name, (source, skipped) = item
    checks = [c for c in all_checks() if c.function not in skipped]
    # An entry that cannot finish a deep chain in hours fails its deep family and the timed ones as surely when its
    # calls are stopped after 3 s as after 5 or 8 (a call stopped for time fails linear_time, whatever its limit).
    # A check judged by how the time grows times each of its sizes, the largest for a second or more of CPU: under
    # the cap a busy machine would stop it for a right answer, so those checks get a cap of their own.
    capped = name in timed_out()
    grown = [c for c in checks if c.expect == "linear_growth"] if capped else []
    rest = [c for c in checks if c not in grown]
    limits = Limits(longest_call_seconds=CAP_SECONDS) if capped else Limits()
    results = grade(Submission(name, [Chunk(name, source)]), rest, limits, shrink=False).results
    failing = set(zoo.entry(name).fails) if grown else set()  # an entry capped is a buggy one
    for group, cap in (
        ([c for c in grown if c.family not in failing], GROWTH_CAP_SECONDS),
        ([c for c in grown if c.family in failing], FAILING_GROWTH_CAP_SECONDS),  # stopped there, it fails as surely
    ):
        if not group:
            continue
        # each size timed twice when it grew too fast, up to the cap: a budget that a busy machine cannot spend first
        limits = Limits(longest_call_seconds=cap, submission_seconds=GROWTH_BUDGET_SECONDS)
        results += grade(Submission(name, [Chunk(name, source)]), group, limits, shrink=False).results
    return name, {
        r.check.id: (r.score, r.check.points, r.failure.summary if r.failure else "", r.misconception) for r in results
    }


@lru_cache(maxsize=1)
def all_grades():
    from autograder.grading.runner import warm

    jobs = list(sources().items())
    warm()  # once, before the workers fork, as make grade does
    with ProcessPoolExecutor(max_workers=2) as pool:
        graded = dict(pool.map(grade_source, jobs))
    for whole in ("reference", "stub"):  # every module's, together: the course's reference and stub
        for name in [n for n in graded if n.startswith(f"{whole}:")]:
            graded[whole] = {**graded[whole], **graded.pop(name)}
    return graded
