"""Run every hidden check on one submission: sandbox calls in, judged results out."""

import dataclasses
import re
import time
from dataclasses import dataclass, field

from autograder.course import active
from autograder.grading import growth, prepared
from autograder.grading.compare import Failure
from autograder.grading.engine import Check
from autograder.sandbox.limits import Limits
from autograder.sandbox.sandbox import Sandbox
from autograder.grading.submission import Chunk, Submission

# The course's parts this module grades with (autograder/course/active.py).
check_table, diagnose, judges = active.part("checks"), active.part("diagnose"), active.part("judges")
JUDGES, work_out = judges.JUDGES, judges.work_out

SLOW_MARGIN, SLOW_SLACK = 25.0, 0.25  # linear_time: at most 25x the reference's CPU time + 0.25 s
TELLING_TRIES = 50  # how many of a shrink's last failures are asked whether they tell the misconceptions apart
GROWING = ("timeout", "slow")  # failures of a call too slow, which a check with growth explains
HARD = ("timeout", "died")  # failures that stop a property check at once: no shrinking through hangs or crashes
UNMEASURED = "unmeasured"  # a Failure's status when this machine cannot measure what the check judges: not graded


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
    tells = getattr(diagnose, "tells_apart", None)
    if tells is not None:
        for failure in failures[-1:-TELLING_TRIES - 1:-1]:
            if tells(check, failure):
                return failure
    return failures[-1]


class OutOfTime(BaseException):
    """The submission's time budget ran out while Hypothesis was shrinking: stop it at once.

    A BaseException, so Hypothesis does not take it for a failure to shrink.
    """


class Runner:
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
        reply = self.sandbox.call(case.fn, list(case.args), case.kwargs, seconds=seconds, built=case.built, **case.request())
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
        if failure is not None and check.growth is not None and failure.status in GROWING and check.expect != "linear_growth":
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
        judge = self.judging(JUDGES[check.expect])
        for case in inputs(check):
            failure = (self.judging(JUDGES[case.expect]) if case.expect else judge)(check, case, self.call(case))
            if failure:
                return failure
        return None

    def timed_sizes(self, sized, judge=None, check=None):
        """(sizes, CPU seconds) of the calls ``sized`` lists ([(size, Case)], smallest first), each in a fresh child.

        A call that runs out of its time stops the series with None as its time (a larger one would too). With
        ``judge``, a wrong answer stops it too, and is returned as the third item; out of the submission's time,
        the series is None.
        """
        sizes, seconds = [], []
        for size, case in sized:
            if self.sandbox.seconds_left() <= 0:
                return None, None, self.out_of_time(case)
            limit = case.seconds or self.sandbox.limits.struck_large_call_seconds
            reply = self.measured_call(case, seconds=limit, measure_cpu=True)
            status = reply.get("status")
            if status == "out_of_time":
                return None, None, self.out_of_time(case)
            if status == "timeout":
                sizes.append(size)
                seconds.append(None)
                break
            if judge is not None:
                failure = judge(check, case, reply)
                if failure:
                    return sizes, seconds, failure
            elif status != "ok":
                break
            sizes.append(size)
            seconds.append(reply.get("cpu_seconds", reply.get("wall_seconds")))
        return sizes, seconds, None

    def grown(self, check, failure):
        """``failure`` (a call too slow), with what the check's smaller inputs show of how the call's time grows."""
        unit, sized = check.growth(failure.case)
        sizes, seconds, _stopped = self.timed_sizes([(n, c) for n, c in sized if c.label != failure.case.label])
        if not sizes:
            return failure
        said = growth.sentence(failure.case.fn, unit, sizes, seconds)
        first = re.sub(r" \([^()]*\)$", "", failure.summary)  # the guess at a cause the measure now replaces
        return dataclasses.replace(failure, summary=f"{first}. On smaller inputs, {said}")

    def run_growth(self, check):
        """Pass if the call's CPU time grows with its input about as the reference's does, over the same sizes.

        Each case's check.growth lists the same call at two or more sizes, the case itself the largest; each is
        timed in a fresh child and its answer judged. The reference's times are measured on this machine, through
        the same sandbox (or read from the course's store, measured there). A call whose time grew far faster than
        the reference's, and that took several times as long on the largest input, fails (growth.superlinear); one
        that finished is timed a second time before it fails, the better time of each size kept, so one run slowed
        by a busy machine is forgiven.
        """
        for case in inputs(check):
            unit, sized = check.growth(case)
            best = None
            for _attempt in range(2):
                sizes, seconds, failure = self.timed_sizes(sized, self.judging(JUDGES[case.expect or check.expect]),
                                                           check)
                if failure:
                    return failure
                best = seconds if best is None or len(best) != len(seconds) else [
                    None if a is None and b is None else min(t for t in (a, b) if t is not None)
                    for a, b in zip(best, seconds)]
                reference = [reference_seconds(each) for _n, each in sized[:len(sizes)]]
                if not growth.superlinear(sizes, best, reference):
                    break
                if best[-1] is None:  # stopped on the largest: a second try would only wait as long again
                    said = growth.sentence(case.fn, unit, sizes, best, reference)
                    return Failure(case, f"{said}: the rule asks for linear time", status="slow")
            else:
                said = growth.sentence(case.fn, unit, sizes, best, reference)
                return Failure(case, f"{said}: the rule asks for linear time", status="slow")
        return None

    def run_property(self, check):
        """Replay the property's examples, drawn once per process; let Hypothesis shrink only a wrong answer.

        The examples are derandomized, so replaying them calls the learner's code as a Hypothesis
        run would until the first failure. A hang or a crash is reported on that
        example, as a Hypothesis run does (it never shrinks through one); a wrong answer is
        handed to Hypothesis, which finds it again and shrinks it to the smallest example.
        """
        judge = self.judging(JUDGES[check.expect])
        for case in drawn_examples(check):
            failure = judge(check, case, self.call(case))
            if failure is None:
                continue
            if failure.status in HARD or failure.status == "out_of_time" or not self.shrinking:
                return failure
            return self.shrink(check, failure)
        return None

    def shrink(self, check, found):
        """The smallest failing example Hypothesis finds, or `found` if the budget stops it first."""

        def judge(check, case, reply):
            if reply.get("status") == "out_of_time":
                raise OutOfTime
            return JUDGES[check.expect](check, case, reply)

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
        except Exception:  # noqa: BLE001 - whatever Hypothesis raises, the recorded failure tells the story
            pass
        return failures

    def measured_call(self, case, **measure):
        """One measured call of `case`, alone in a child of its own: started fresh for it and ended after it, so
        nothing an earlier call left changes the measure, and nothing the measured call leaves (a child that
        stopped reading, say) reaches a later check."""
        self.sandbox.renew()
        try:
            return self.sandbox.call(case.fn, list(case.args), case.kwargs, built=case.built, **measure,
                                     **case.request())
        finally:
            self.sandbox.renew()

    def run_timed(self, check):
        """Pass if the learner's CPU time stays within a wide margin of the reference's, measured in this run.

        CPU time of the child's process tree is read by the parent (its cgroup, or /proc), so a
        busy machine slows neither side much and the child cannot report a false time. Each case
        is timed once, in a fresh child: nothing an earlier call left (an answer remembered, a
        warm cache) shortens it, and no second try forgives a slow first one (the margin is what
        forgives a busy machine).
        """
        for case in inputs(check):
            if self.sandbox.seconds_left() <= 0:
                return self.out_of_time(case)
            limit = SLOW_MARGIN * reference_seconds(case) + SLOW_SLACK
            reply = self.measured_call(case, seconds=2 * limit, measure_cpu=True)
            if reply.get("status") == "out_of_time":
                return self.out_of_time(case)
            stopped = reply.get("status") == "timeout"  # stopped without an answer: slow, even under Limits.longest_call_seconds
            if not stopped:
                failure = JUDGES[check.expect](check, case, reply)  # the answer's bar; the time is judged below
                if failure:
                    return failure
            spent = reply["wall_seconds"] if stopped else reply.get("cpu_seconds", reply["wall_seconds"])
            if stopped or spent > limit:
                summary = (
                    f"{case.fn} took {spent:.2f} s or more on {case.label}; code that is linear in its input "
                    f"takes well under {limit:.2f} s of CPU here (the reference took {reference_seconds(case):.3f} s)"
                )
                return Failure(case, summary, status="slow")
        return None

    def run_bounded(self, check):
        """Pass if the call's peak memory stays within the case's allowance above the reference's, on the same input.

        Each case runs in a fresh child, as the reference's did, and its peak is read by the parent
        from the child's memory cgroup, from before the learner's code loaded to the end of the
        call: the child cannot report a false one, and memory its loading took and freed counts.
        The check's judge sees the reply with memory_bytes, memory_reference and memory_limit, so
        a course may word the failure in its own terms; the answer must meet that judge as well.
        Where no memory cgroup can be made, the check is not graded (UNMEASURED), and says why.
        """
        for case in inputs(check):
            if self.sandbox.seconds_left() <= 0:
                return self.out_of_time(case)
            reply = self.measured_call(case, seconds=case.seconds or None, measure_memory=True)
            if reply.get("status") == "out_of_time":
                return self.out_of_time(case)
            used, reference = reply.get("memory_bytes"), reference_memory(case)
            limit = None if reference is None else reference + case.memory_bytes
            if used is not None and limit is not None:
                reply = dict(reply, memory_reference=reference, memory_limit=limit)
            failure = JUDGES[check.expect](check, case, reply)  # the answer's bar, and the course's words on memory
            if failure:
                return failure
            if used is None or limit is None:
                return Failure(case, f"not graded: the memory {case.fn} holds on {case.label} cannot be measured on "
                                     "this machine (the grader can make no memory cgroup, and a process's own peak "
                                     "is no measure), so this check neither earns nor costs points here",
                               status=UNMEASURED)
            if used > limit:
                return Failure(case, f"{case.fn} held {_megabytes(used)} at its peak on {case.label}; the reference "
                                     f"holds {_megabytes(reference)}, and at most {_megabytes(limit)} passes",
                               status="memory")
        return None


def _megabytes(count):
    return f"{count / 2**20:.2f} MiB"


_REFERENCE_TIMES = {}
_REFERENCE_MEMORY = {}


def reference_replies(case, repeats=1, **measure):
    """The reference's replies to `case`, called `repeats` times in one fresh sandbox child, as a learner's would be."""
    source = open(judges.reference_module(case.fn).__file__, encoding="utf-8").read()
    with Sandbox([Chunk("reference", source)], reference=True) as sandbox:
        return [sandbox.call(case.fn, list(case.args), case.kwargs, seconds=60, built=case.built, **measure,
                             **case.request()) for _ in range(repeats)]


def reference_memory(case):
    """The reference's peak memory on `case` (bytes above a fresh child's), through the same sandbox, once per process."""
    key = (case.fn, case.label)
    if key not in _REFERENCE_MEMORY:
        (reply,) = reference_replies(case, measure_memory=True)
        _REFERENCE_MEMORY[key] = reply.get("memory_bytes") if reply.get("status") == "ok" else None
    return _REFERENCE_MEMORY[key]


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


_INPUTS = {}  # id(check) -> (check, cases): the cases of a check whose inputs are built at run time


def inputs(check):
    """A check's cases: the fixed ones, or those built at run time, taken from the store when it holds them."""
    if not callable(check.cases):
        return check.cases
    cached = _INPUTS.get(id(check))
    if cached is None or cached[0] is not check:
        stored = store().inputs_of(check)
        cached = _INPUTS[id(check)] = (check, stored if stored is not None else check.inputs())
    return cached[1]


_STORE = []  # the store this process grades with, loaded when first needed


def store():
    """What the course's store holds (autograder/grading/prepared.py): loaded and verified once per process."""
    if not _STORE:
        _STORE.append(prepared.load(check_table.all_checks()))
    return _STORE[0]


def use(held):
    """Grade with ``held`` (a prepared.Prepared) from now on, in place of the course's store; forget what was worked out."""
    _STORE[:] = [held]
    for cache in (_EXAMPLES, _INPUTS, _REFERENCE_TIMES):
        cache.clear()


def grade(submission: Submission, checks=None, limits=Limits(), first=None, shrink=True) -> Grade:
    """Grade one submission on every check (or the given ones).

    ``shrink=False`` reports a failing property example as found, without asking Hypothesis for the
    smallest one: a score never depends on it, only the example the message shows.

    ``first(sandbox)``, if given, runs before the checks in the same sandbox session (one child, the learner's
    code loaded once; nothing a check calls can have changed the module yet), and what it returns is the
    Grade's ``also``.
    """
    started = time.perf_counter()
    checks = check_table.all_checks() if checks is None else checks
    results = []
    with Sandbox(submission.chunks, limits) as sandbox:
        also = first(sandbox) if first is not None else None
        runner = Runner(sandbox, shrink)
        for check in checks:
            failure = runner.run(check)
            result = CheckResult(check, 0.0 if failure else check.points, failure)
            if failure and result.graded:
                result.misconception = diagnose.misconception(check, failure)
            results.append(result)
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


def warm(checks=None):
    """Work out now, once, everything the checks need that no submission changes.

    Each check's cases (the large inputs among them), each property's drawn examples, the
    reference's answer to every case that is judged against one (only the anchor entry when a judge
    compares just that one), its time on every timed case and its peak memory on every memory-bounded one.
    The course's store (prepared.py) gives what it holds: drawn examples, large inputs, the reference's times.
    A worker process forked afterwards inherits all of it instead of working it out again.
    """
    for check in check_table.all_checks() if checks is None else checks:
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
