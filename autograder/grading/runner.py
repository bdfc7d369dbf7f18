"""Run every hidden check on one submission: sandbox calls in, judged results out.

Checks of time and memory are measured runs (autograder/grading/measured.py); what no submission changes is worked
out once per process (autograder/grading/worked_out.py).
"""

import dataclasses
import functools
import gc
import time
from dataclasses import dataclass, field

from autograder.course import active
from autograder.grading import worked_out
from autograder.grading.compare import Failure
from autograder.grading.engine import Check
from autograder.grading.measured import UNMEASURED, MeasuredRuns, is_measured, measures_memory
from autograder.grading.submission import Submission
from autograder.grading.worked_out import inputs, reference_memory, reference_seconds, store, strategy_of
from autograder.sandbox.limits import Limits
from autograder.sandbox.sandbox import Sandbox


def _judge(name):
    """The course's judge ``name``."""
    return active.part("judges").JUDGES[name]


TELLING_TRIES = 50  # how many of a shrink's last failures are asked whether they tell the misconceptions apart
# Shrinking stops at a budget, and the smallest failure found by then is shown: never a score, only the example a
# message shows depends on it. Calls past the first failure of a search: the zoo's longest shrink makes under 250,
# so the budget shows every zoo entry its fully shrunk example. Seconds from the first failure: the zoo's longest
# shrink takes a second or two; a hand-in whose every call is slow would otherwise shrink on into the time budget
# its other checks share (Limits.submission_seconds).
SHRINK_CALLS = 300
SHRINK_SECONDS = 5.0
GROWING = ("timeout", "slow")  # failures of a call too slow, which a check with growth explains
HARD = ("timeout", "died")  # failures that stop a property check at once: no shrinking through hangs or crashes


@dataclass
class CheckResult:
    check: Check
    score: float
    failure: Failure = None
    misconception: str = ""

    @property
    def passed(self):
        return self.failure is None

    @property
    def graded(self):
        """False when this machine could not measure what the check judges: it neither earns nor costs points."""
        return self.failure is None or self.failure.status != UNMEASURED

    @property
    def points(self):
        """What the check counts for here: its points, or 0 when it was not graded."""
        return self.check.points if self.graded else 0


@dataclass
class Grade:
    origin: str
    results: list
    load_errors: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    output: str = ""
    seconds: float = 0.0
    also: object = None  # what grade(first=...) returned, in the same sandbox session

    @property
    def score(self):
        return sum(r.score for r in self.results)

    @property
    def max_score(self):
        return sum(r.points for r in self.results)


def telling(check, failures):
    """The smallest of a shrink's failures (the last found) whose input tells the course's misconceptions apart.

    Hypothesis shrinks towards the simplest values (zeros), where several misconceptions may give the same
    answer; a course's diagnose part may say which failures tell them apart (``tells_apart``): the last such
    one is shown, or the smallest of all when none does.
    """
    tells = getattr(active.part("diagnose"), "tells_apart", None)
    if tells is not None:
        for failure in failures[-1 : -TELLING_TRIES - 1 : -1]:
            if tells(check, failure):
                return failure
    return failures[-1]


class OutOfTime(BaseException):
    """The submission's time budget ran out while Hypothesis was shrinking: stop it at once.

    A BaseException, so Hypothesis does not take it for a failure to shrink.
    """


class ShrinkSpent(BaseException):
    """A search's shrink budget is spent: stop Hypothesis at once (a BaseException, as OutOfTime is)."""


class Runner(MeasuredRuns):
    """Sends one check's calls to the sandbox and judges the replies.

    Every call of one submission shares the sandbox's time budget (Limits.submission_seconds).
    A function that timed out once gets short per-call limits afterwards (``struck``); once the
    budget is spent, every call left fails at once with an out-of-time failure, whatever its
    own limit, so a submission that is slow everywhere holds a worker for that long at most.
    """

    def __init__(self, sandbox, shrink=True):
        self.sandbox = sandbox
        self.shrinking = shrink  # False: a failing property example is reported as replayed, not made smallest
        self.struck = set()  # functions that timed out once: later calls get the limits' struck seconds

    def call(self, case):
        seconds = case.seconds or None
        if case.fn in self.struck:  # it hung before: a right answer would not need long now either
            limits = self.sandbox.limits
            seconds = min(seconds or limits.struck_call_seconds, limits.struck_large_call_seconds)
        reply = self.sandbox.call(
            case.fn, list(case.args), case.kwargs, seconds=seconds, built=case.built, **case.request()
        )
        if reply.get("status") == "timeout":
            self.struck.add(case.fn)
        return reply

    def out_of_time(self, case):
        budget = self.sandbox.limits.submission_seconds
        summary = (
            f"out of time: the calls of one submission may take {budget:.0f} s all together, and that time ran out "
            f"before {case.fn} answered on {case.label or 'this input'}; make the slow function faster"
        )
        return Failure(case, summary, status="out_of_time")

    def judging(self, judge):
        """`judge`, with a reply that came too late for the submission's budget judged out of time."""

        def judged(check, case, reply):
            if reply.get("status") == "out_of_time":
                return self.out_of_time(case)
            return judge(check, case, reply)

        return judged

    def run(self, check):
        """The check's Failure, or None; a call too slow says how its time grows where the check can measure it."""
        failure = self.judged(check)
        if (
            failure is not None
            and check.growth is not None
            and failure.status in GROWING
            and check.expect != "linear_growth"
        ):
            failure = self.grown(check, failure)
        return failure

    def judged(self, check):
        if check.strategy is not None:
            return self.run_property(check)
        if check.expect == "linear_time":
            return self.run_timed(check)
        if check.expect == "linear_growth":
            return self.run_growth(check)
        if check.expect == "memory_bound":
            return self.run_bounded(check)
        judge = self.judging(_judge(check.expect))
        for case in inputs(check):
            failure = (self.judging(_judge(case.expect)) if case.expect else judge)(check, case, self.call(case))
            if failure:
                return failure
        return None

    def run_property(self, check):
        """Replay the property's examples, drawn once per process; let Hypothesis shrink only a wrong answer.

        The examples are derandomized, so replaying them calls the learner's code as a Hypothesis
        run would until the first failure. A hang or a crash is reported on that
        example, as a Hypothesis run does (it never shrinks through one); a wrong answer is
        handed to Hypothesis, which finds it again and shrinks it to the smallest example.
        """
        judge = self.judging(_judge(check.expect))
        for case in drawn_examples(check):
            failure = judge(check, case, self.call(case))
            if failure is None:
                continue
            if failure.status in HARD or failure.status == "out_of_time" or not self.shrinking:
                return failure
            return self.shrink(check, failure)
        return None

    def shrink(self, check, found):
        """The smallest failing example Hypothesis finds within the shrink budget (SHRINK_CALLS, SHRINK_SECONDS), or
        `found` if the submission's time budget stops it first."""

        def judge(check, case, reply):
            if reply.get("status") == "out_of_time":
                raise OutOfTime
            return _judge(check.expect)(check, case, reply)

        try:
            failures = self.search(check, judge)
        except OutOfTime:
            return found
        if not failures:  # the learner's code answered differently this time: the first wrong answer stands
            return found
        hard = [f for f in failures if f.status in HARD]
        return hard[0] if hard else telling(check, failures)

    def search(self, check, judge):
        """Hypothesis drives the cases; the last failure it records is the shrunk, smallest one.

        Hypothesis seeds its derandomized examples from the source of ``holds`` below, decorators
        included (comments aside), and mixes in constants it finds in the kit's own modules: the
        examples change with the code, and drawn_examples draws them once per process.
        """
        from hypothesis import HealthCheck, Phase, given, settings  # imported here: a stored example needs none

        if callable(check.strategy):  # given as a function: the strategy it builds (holds' text stays as it is)
            check = dataclasses.replace(check, strategy=strategy_of(check))
        failures = []
        judge = _budgeted(judge, failures)  # bound here: the text of holds below, and so its examples, stay as they are

        @settings(
            max_examples=check.examples,
            derandomize=True,
            database=None,
            deadline=None,
            phases=(Phase.explicit, Phase.generate, Phase.shrink),
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
        )
        @given(check.strategy)
        def holds(case):
            if failures and failures[0].status in ("timeout", "died"):
                return  # the process is hanging or crashing: do not shrink through more of that
            failure = judge(check, case, self.call(case))
            if failure:
                failures.append(failure)
                raise AssertionError(failure.summary)

        try:
            holds()
        except ShrinkSpent:
            pass  # the smallest failure found so far stands
        except Exception:  # noqa: BLE001 - whatever Hypothesis raises, the recorded failure tells the story
            pass
        return failures


def _budgeted(judge, failures):
    """``judge``, raising ShrinkSpent for a reply once the search's shrink budget is spent: SHRINK_CALLS replies after
    the first failure in ``failures``, or SHRINK_SECONDS after it was found (the call that brought the reply is the
    one past the budget)."""
    spent = {"replies": 0, "until": None}

    def judged(check, case, reply):
        if failures:
            spent["replies"] += 1
            if spent["replies"] > SHRINK_CALLS or time.monotonic() > spent["until"]:
                raise ShrinkSpent
        failure = judge(check, case, reply)
        if failure and not failures:
            spent["until"] = time.monotonic() + SHRINK_SECONDS
        return failure

    return judged


class _Recorder(Runner):
    """Stands in for a sandbox while Hypothesis draws a property's examples: every call passes."""

    def __init__(self):
        super().__init__(sandbox=None)
        self.cases = []

    def call(self, case):
        self.cases.append(case)
        return {"status": "ok"}


_EXAMPLES = {}  # (id(strategy), examples) -> (strategy, [Case]): each property's examples, in Hypothesis's order


def drawn_examples(check):
    """The examples a Hypothesis run of `check` tries on a submission that passes them all, drawn once per process."""
    key = (id(check.strategy), check.examples)
    cached = _EXAMPLES.get(key)
    if cached is None or cached[0] is not check.strategy:
        stored = store().examples_of(check)
        if stored is None:
            recorder = _Recorder()
            recorder.search(check, lambda check, case, reply: None)
            stored = recorder.cases
        cached = _EXAMPLES[key] = (check.strategy, stored)
    return cached[1]


def use(held):
    """Grade with ``held`` (a prepared.Prepared) from now on, in place of the course's store; forget what was worked
    out."""
    worked_out.use(held)
    _EXAMPLES.clear()


def grade(submission: Submission, checks=None, limits=Limits(), first=None, shrink=True) -> Grade:
    """Grade one submission on every check (or the given ones).

    ``shrink=False`` reports a failing property example as found, without asking Hypothesis for the
    smallest one: a score never depends on it, only the example the message shows.

    ``first(sandbox)``, if given, runs before the checks in the same sandbox session (one child, the learner's
    code loaded once; nothing a check calls can have changed the module yet), and what it returns is the
    Grade's ``also``.
    """
    started = time.perf_counter()
    checks = list(active.part("checks").all_checks() if checks is None else checks)
    diagnose = active.part("diagnose")
    # The measured checks run last: each of their calls ends the child it ran in, so the checks after one would
    # start a child again to load the code; last, none does. Results keep the checks' order.
    order = sorted(range(len(checks)), key=lambda k: is_measured(checks[k]))
    results = [None] * len(checks)
    measured = [checks[k] for k in order if is_measured(checks[k])]
    with Sandbox(submission.chunks, limits) as sandbox:
        if measured and len(measured) < len(checks):  # the first measured call's child loads while the others run
            sandbox.start_ahead(mark_memory=measures_memory(measured[0]))
        sandbox.while_loading(functools.partial(_read_ahead, measured))
        also = first(sandbox) if first is not None else None
        runner = Runner(sandbox, shrink)
        for k in order:
            check = checks[k]
            failure = runner.run(check)
            result = CheckResult(check, 0.0 if failure else check.points, failure)
            if failure and result.graded:
                result.misconception = diagnose.misconception(check, failure)
            results[k] = result
        load_errors = sandbox.load_errors
    return Grade(
        origin=str(submission.origin),
        results=results,
        load_errors=load_errors,
        notes=list(submission.notes),
        output=sandbox.output(),
        seconds=time.perf_counter() - started,
        also=also,
    )


def _read_ahead(checks):
    """The cases of ``checks`` (the measured ones, run last), read from the store while the first child loads the
    code: a fresh grading process decodes their large inputs then, not between two of its calls."""
    for check in checks:
        try:
            inputs(check)
        except Exception:  # noqa: BLE001 -- the check reads them again when it runs, and says what fails
            pass


def warm(checks=None):
    """Work out now, once, everything the checks need that no submission changes.

    Each check's cases (the large inputs among them), each property's drawn examples, the
    reference's answer to every case that is judged against one (only the anchor entry when a judge
    compares just that one), its time on every timed case and its peak memory on every memory-bounded one.
    The course's store (prepared.py) gives what it holds: drawn examples, large inputs, the reference's times.
    A worker process forked afterwards inherits all of it instead of working it out again. All of it lives as long as
    the process, so it is set aside from the collector at the end (gc.freeze): no collection walks its objects again,
    and a forked worker's collections leave the pages it shares with this process unwritten.
    """
    work_out = active.part("judges").work_out
    for check in active.part("checks").all_checks() if checks is None else checks:
        if check.strategy is not None:
            drawn_examples(check)
            continue
        for case in inputs(check):
            work_out(case.expect or check.expect, case)
            if check.expect == "linear_time":
                reference_seconds(case)
            if check.expect == "linear_growth":
                for _size, each in check.growth(case)[1]:
                    work_out(each.expect or check.expect, each)
                    reference_seconds(each)
            if check.expect == "memory_bound":
                reference_memory(case)
    gc.freeze()
