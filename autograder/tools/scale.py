"""One cold batch in a process of its own, reporting its wall time and peak memory (for `make bench`).

    python -m autograder.tools.scale OUT SUBMISSIONS [--workers N]

Runs autograder.pipeline.batch.run on SUBMISSIONS into OUT (which should not exist yet) and
prints one JSON line: the wall seconds and each step's, the batch process's own peak resident
set size (nbgrader's steps run in it, through nbgrader's Python API), its peak and its resident
set size as each step ended, its resident set size at the end, and the largest peak of the processes it waited for
(the pool's workers, which start the sandboxes), in MiB. A fresh
process per batch keeps one measurement from inheriting another's peak.
"""

import argparse
import contextlib
import json
import resource
import sys
import time

from autograder.nbgrader.course_folder import Course
from autograder.pipeline import batch, feedback_pool, handins, outputs, pool, pregrading

# The batch's steps, as batch.run calls them: (step, owner, attribute). Wrapped while a batch runs
# so each one's wall time adds up under its step; "reports" is every export, the cohort streamed through them.
# With several workers, feedback is written alongside autograde: its step is then what is left after autograde;
# and the hidden checks are graded alongside it too: their step is then what autograde waited for records.
# A step's seconds are its own: the steps it calls count under theirs.
STEPS = (
    ("course + generate_assignment", Course, "prepare"),
    ("mirror hand-ins", handins, "mirror"),
    ("hidden checks", pregrading.Grading, "__init__"),  # reading the notebooks, and with one worker the grading
    ("hidden checks", pregrading.Grading, "finish"),
    ("hidden checks", pregrading.Grading, "wait"),  # with two workers: nbgrader waiting for a record
    ("nbgrader autograde", batch, "autograde"),
    ("nbgrader feedback", feedback_pool.Feedback, "finish"),
    ("exports + reports", outputs, "write_outputs"),
)


def peak_mib(who):
    """Peak resident set size from getrusage (RUSAGE_SELF, or RUSAGE_CHILDREN: the largest waited-for child), in MiB."""
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def _status_mib(field):
    """A size field of /proc/self/status (VmRSS, VmHWM) in MiB; None where /proc cannot tell."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def current_mib():
    """This process's resident set size now (VmRSS), in MiB; 0 where /proc cannot tell."""
    return _status_mib("VmRSS") or 0.0


def own_peak_mib():
    """This process's peak resident set size (VmHWM), in MiB.

    Not getrusage's ru_maxrss: Linux carries that across exec, so a process started by a large
    parent would report the parent's size. getrusage only where /proc cannot tell.
    """
    peak = _status_mib("VmHWM")
    return peak if peak is not None else peak_mib(resource.RUSAGE_SELF)


@contextlib.contextmanager
def timed_steps(steps=STEPS, peaks=None, sizes=None):
    """While in the block, each step's calls add their wall seconds to the yielded {step: seconds}.

    ``peaks``, a dict when given, gets {step: peak RSS of this process in MiB once the step ended};
    ``sizes`` gets {step: its RSS then}, which shows what a step kept even below an earlier peak.
    """
    seconds = {}
    originals = [(owner, name, getattr(owner, name)) for _step, owner, name in steps]
    inner = [0.0]  # seconds of the steps called inside the call that runs now: theirs, not its own

    def timed(step, function):
        def call(*args, **kwargs):
            started, outer = time.perf_counter(), inner[0]
            inner[0] = 0.0
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.perf_counter() - started
                seconds[step] = seconds.get(step, 0.0) + spent - inner[0]
                inner[0] = outer + spent
                if peaks is not None:
                    peaks[step] = own_peak_mib()
                if sizes is not None:
                    sizes[step] = current_mib()

        return call

    for (step, _owner, _name), (owner, name, function) in zip(steps, originals):
        setattr(owner, name, timed(step, function))
    try:
        yield seconds
    finally:
        for owner, name, function in originals:
            setattr(owner, name, function)


def measure(out, submissions, workers, stream=None):
    started = time.perf_counter()
    peaks, sizes = {"start": own_peak_mib()}, {"start": current_mib()}
    with timed_steps(peaks=peaks, sizes=sizes) as steps:
        cohort = batch.run(out=out, submissions=submissions, workers=workers, stream=stream)
    total = time.perf_counter() - started
    steps["other"] = max(0.0, total - sum(steps.values()))
    return {
        "seconds": total,
        "steps": steps,
        "peaks_mib": peaks,
        "rss_mib": sizes,
        "end_mib": current_mib(),
        "handins": len(cohort.regraded),
        "learners": len(cohort.learners),
        "batch_mib": own_peak_mib(),
        "children_mib": peak_mib(resource.RUSAGE_CHILDREN),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("submissions")
    parser.add_argument("--workers", type=int, default=pool.WORKERS)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.out, args.submissions, args.workers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
