"""The runner's measured checks: CPU time against the reference's, how it grows with the input, and peak memory.

Each measured call runs alone in a fresh sandbox child; what is measured is read by the parent, never reported by the
child. The reference is measured through the same sandbox (autograder/grading/worked_out.py).
"""

import dataclasses
import re

from autograder.course import active
from autograder.grading import growth
from autograder.grading.compare import Failure
from autograder.grading.worked_out import inputs, known_seconds, reference_memory, reference_seconds

SLOW_MARGIN, SLOW_SLACK = 25.0, 0.25  # linear_time: at most 25x the reference's CPU time + 0.25 s
UNMEASURED = "unmeasured"  # a Failure's status when this machine cannot measure what the check judges: not graded
MEASURED = ("linear_time", "linear_growth", "memory_bound")  # what MeasuredRuns judges: each call in a fresh child


def is_measured(check):
    """Whether the check is judged here (a time or a memory measured), its every call alone in a fresh child."""
    return check.strategy is None and check.expect in MEASURED


def measures_memory(check):
    """Whether the check's calls measure memory (their child is marked before the learner's code loads)."""
    return check.expect == "memory_bound"


def timed_limit(reference):
    """The CPU seconds linear_time allows a call whose reference took ``reference`` seconds."""
    return SLOW_MARGIN * reference + SLOW_SLACK


def working_out(expect, case):
    """A function working out what judging ``case`` with ``expect`` compares against (the course's work_out), run
    while a measured call's child is busy with the learner's code: a fresh grading process finds it done. It runs in
    this thread once the request is sent, so nothing of the call is measured in this process, and never raises."""

    def work_out():
        try:
            active.part("judges").work_out(expect, case)
        except Exception:  # noqa: BLE001 -- the judge works it out again, and says what fails
            pass

    return work_out


def _judge(expect):
    """The course's judge of ``expect``."""
    return active.part("judges").JUDGES[expect]


class MeasuredRuns:
    """The Runner's checks of time and memory. A Runner gives ``sandbox``, ``judging`` and ``out_of_time``."""

    def timed_sizes(self, sized, judge=None, check=None, cpu=None):
        """(sizes, CPU seconds) of the calls ``sized`` lists ([(size, Case)], smallest first), each in a fresh child.

        A call that runs out of its time stops the series with None as its time (a larger one would too); ``cpu``
        ({case label: CPU seconds}) stops a call once its CPU time passes its entry, as its time ran out. With
        ``judge``, a wrong answer stops it too, and is returned as the third item; out of the submission's time,
        the series is None.
        """
        sizes, seconds = [], []
        for size, case in sized:
            if self.sandbox.seconds_left() <= 0:
                return None, None, self.out_of_time(case)
            limit = case.seconds or self.sandbox.limits.struck_large_call_seconds
            stop = {"cpu": cpu[case.label]} if cpu and case.label in cpu else {}
            reply = self.measured_call(case, seconds=limit, measure_cpu=True, **stop)
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
        smaller, cpu = [(n, c) for n, c in sized if c.label != failure.case.label], {}
        if check.expect == "linear_time":  # each stopped where run_timed would stop it: past that, it is slow there too
            most = self.sandbox.limits.struck_large_call_seconds
            for k, (n, c) in enumerate(smaller):
                known = known_seconds(c)
                if known is not None:  # without the store, no reference is timed for a message
                    cpu[c.label] = timed_limit(known)
                    smaller[k] = (n, dataclasses.replace(c, seconds=min(2 * cpu[c.label], c.seconds or most)))
        sizes, seconds, _stopped = self.timed_sizes(smaller, cpu=cpu)
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
        the reference's, and that took several times as long on the largest input, fails (growth.superlinear). A call
        that took that long on the largest and finished is timed a second time before it is judged, the better time
        of each size kept: one timing slowed by a busy machine is forgiven, and lets nothing through either.
        """
        for case in inputs(check):
            unit, sized = check.growth(case)
            judge = self.judging(_judge(case.expect or check.expect))
            # The largest first: a call that took less than growth.SLOWER times the reference's there cannot be
            # read as growing too fast, so the smaller sizes are timed only when it did not.
            _sizes, largest, failure = self.timed_sizes(sized[-1:], judge, check)
            if failure:
                return failure
            if not growth.may_be_superlinear(largest[-1], reference_seconds(sized[-1][1])):
                continue
            smaller = sized[:-1]
            if largest[-1] is None:  # stopped: it fails, and the smaller sizes only say how its time grows, each
                # within the largest's limit in proportion to its size (what a linear call would need at most)
                limits = self.sandbox.limits
                limit = min(sized[-1][1].seconds or limits.struck_large_call_seconds, limits.longest_call_seconds)
                smaller = [(n, dataclasses.replace(c, seconds=limit * n / sized[-1][0])) for n, c in smaller]
            sizes, seconds, failure = self.timed_sizes(smaller, judge, check)
            if failure:
                return failure
            if len(sizes) == len(sized) - 1 and None not in seconds:
                sizes, seconds = [*sizes, sized[-1][0]], [*seconds, *largest]
            if not seconds or seconds[-1] is not None:
                # Timed a second time, the better time of each size kept, whatever the first timing said: one
                # timing slowed by a busy machine, on any size, neither fails a call that grows as the reference's
                # does nor lets one that grows faster through. (Stopped on the largest, it fails: a second try
                # would only wait as long again.)
                again_sizes, again, failure = self.timed_sizes(sized, judge, check)
                if failure:
                    return failure
                if len(again) == len(seconds):
                    seconds = [
                        None if a is None and b is None else min(t for t in (a, b) if t is not None)
                        for a, b in zip(seconds, again)
                    ]
                else:
                    sizes, seconds = again_sizes, again
            reference = [reference_seconds(each) for _n, each in sized[: len(sizes)]]
            if growth.superlinear(sizes, seconds, reference):
                said = growth.sentence(case.fn, unit, sizes, seconds, reference)
                return Failure(case, f"{said}: the rule asks for linear time", status="slow")
        return None

    def measured_call(self, case, expect=None, **measure):
        """One measured call of `case`, alone in a child of its own: started fresh for it and ended after it, so
        nothing an earlier call left changes the measure, and nothing the measured call leaves (a child that
        stopped reading, say) reaches a later check. With ``expect``, judging the case is worked out while the
        child works on the call (working_out)."""
        self.sandbox.renew()
        meanwhile = working_out(expect, case) if expect else None
        try:
            return self.sandbox.call(
                case.fn,
                list(case.args),
                case.kwargs,
                built=case.built,
                meanwhile=meanwhile,
                **measure,
                **case.request(),
            )
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
            limit = timed_limit(reference_seconds(case))
            # Stopped once its CPU time passes the limit (it fails then, whatever it would answer), or at twice the
            # limit of wall clock, which yields to a busy machine (autograder/sandbox/patience.py)
            expect = case.expect or check.expect
            reply = self.measured_call(case, expect, seconds=2 * limit, measure_cpu=True, cpu=limit)
            if reply.get("status") == "out_of_time":
                return self.out_of_time(case)
            stopped = (
                reply.get("status") == "timeout"
            )  # stopped without an answer: slow, even under Limits.longest_call_seconds
            if not stopped:
                failure = _judge(check.expect)(check, case, reply)  # the answer's bar; the time is judged below
                if failure:
                    return failure
            spent = reply.get("cpu_seconds", reply["wall_seconds"])  # the wall clock where no CPU time was read
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
            failure = _judge(check.expect)(check, case, reply)  # the answer's bar, and the course's words on memory
            if failure:
                return failure
            if used is None or limit is None:
                return Failure(
                    case,
                    f"not graded: the memory {case.fn} holds on {case.label} cannot be measured on "
                    "this machine (the grader can make no memory cgroup, and a process's own peak "
                    "is no measure), so this check neither earns nor costs points here",
                    status=UNMEASURED,
                )
            if used > limit:
                return Failure(
                    case,
                    f"{case.fn} held {_megabytes(used)} at its peak on {case.label}; the reference "
                    f"holds {_megabytes(reference)}, and at most {_megabytes(limit)} passes",
                    status="memory",
                )
        return None


def _megabytes(count):
    return f"{count / 2**20:.2f} MiB"
