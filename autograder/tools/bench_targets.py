"""The targets of the kit's speed, and the summary of a `make bench` run that prints each beside its figure.

Targets are printed, never asserted: a shared machine's load moves wall-clock figures.
"""

import os
import sys
from pathlib import Path

TARGET_STOCK_RATIO = 25.0  # kit, 2 workers, at least this many times faster per learner than stock nbgrader
TARGET_SPEEDUP = 1.8  # 2 workers over 1
TARGET_MEMORY_GROWTH = 0.20  # peak memory at the largest cohort within this share of the smallest's
TARGET_FRESH_SECONDS = 0.4  # one submission graded from a fresh process (the CLI), wall clock
TARGET_OTTER_RATIO = 10.0  # that submission at least this many times faster than `otter run` (when otter is installed)
TARGET_WARM_SECONDS = 0.15  # the hidden checks of one correct submission in a warm process
TARGET_NO_CHANGE_SECONDS = 2.0  # a make grade on the demo cohort that finds nothing changed
TARGET_FIRST_RUN_SECONDS = 60.0  # a fresh clone's setup and first make grade (BENCH_SETUP=1; a quick registry assumed)


def met(ok):
    return "met" if ok else "NOT met"


def per_learner(seconds, learners):
    return seconds / learners if learners else float("nan")


def machine():
    """One line about the machine: cores, load average, memory, Python."""
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 2**20:.0f} GiB memory"
    except OSError:
        pass
    model = ""
    try:
        model = next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            "",
        )
    except OSError:
        pass
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    return (
        f"machine: {os.cpu_count()} cores{f' ({model})' if model else ''}{memory}; load average {load}; "
        f"Python {sys.version.split()[0]}"
    )


def summary(compared, figures, course, fresh, warm, no_change=None, setup=None):
    """Every target beside its figure, met or NOT met (one this run could not measure is NOT met); then ``course``,
    the course's own summary line, and the machine."""
    print("\n== summary (targets are shown, not asserted)")
    n = compared["learners"]
    stock_each, kit1_each, kit2_each = (per_learner(compared[k], n) for k in ("stock", "kit1", "kit2"))
    ratio, ratio1 = stock_each / kit2_each, stock_each / kit1_each
    speedup = kit1_each / kit2_each
    print(f"seconds per learner ({n} learners): stock {stock_each:.2f}, kit x1 {kit1_each:.2f}, kit x2 {kit2_each:.2f}")
    print(
        f"stock / kit: {ratio:.1f}x with 2 workers, {ratio1:.1f}x with 1 "
        f"(target: at least {TARGET_STOCK_RATIO:g}x, {met(ratio >= TARGET_STOCK_RATIO)})"
    )
    print(f"2 workers over 1: {speedup:.2f}x (target: at least {TARGET_SPEEDUP:g}x, {met(speedup >= TARGET_SPEEDUP)})")
    if len(figures) > 1:
        small, large = min(figures), max(figures)
        growth = figures[large]["batch_mib"] / figures[small]["batch_mib"] - 1
        children = figures[large]["children_mib"] / figures[small]["children_mib"] - 1
        print(
            f"peak RSS of the batch: {figures[small]['batch_mib']:.0f} MiB at {small} learners, "
            f"{figures[large]['batch_mib']:.0f} MiB at {large} ({growth:+.0%}; target: within "
            f"{TARGET_MEMORY_GROWTH:.0%}, {met(abs(growth) <= TARGET_MEMORY_GROWTH)}); "
            f"largest worker or sandbox {children:+.0%}"
        )
    else:
        print(
            f"peak RSS of the batch from the smallest cohort to the largest: not measured, BENCH_SCALE names one size "
            f"(target: within {TARGET_MEMORY_GROWTH:.0%}, NOT met: unmeasured)"
        )
    print(
        f"one submission from a fresh process: {fresh['fresh']:.2f} s (target: at most {TARGET_FRESH_SECONDS:g} s, "
        f"{met(fresh['fresh'] <= TARGET_FRESH_SECONDS)})"
    )
    if "otter" in fresh:
        times = fresh["otter"] / fresh["fresh"]
        print(
            f"otter run / the kit on one submission: {times:.1f}x (otter run {fresh['otter']:.2f} s; target: at least "
            f"{TARGET_OTTER_RATIO:g}x, {met(times >= TARGET_OTTER_RATIO)})"
        )
    else:
        print(
            f"otter run / the kit on one submission: not measured, otter is not installed (target: at least "
            f"{TARGET_OTTER_RATIO:g}x, NOT met: unmeasured)"
        )
    print(
        f"hidden checks of one correct submission, warm: {warm:.3f} s (target: at most {TARGET_WARM_SECONDS:g} s, "
        f"{met(warm <= TARGET_WARM_SECONDS)})"
    )
    if no_change is not None:
        print(
            f"make grade with nothing to do, the demo cohort: {no_change:.2f} s (target: at most "
            f"{TARGET_NO_CHANGE_SECONDS:g} s, {met(no_change <= TARGET_NO_CHANGE_SECONDS)})"
        )
    if setup is not None:
        first = setup["setup"] + setup["first_grade"]
        print(
            f"a fresh clone's first make grade, setup included: {first:.0f} s (setup {setup['setup']:.0f} s; target: "
            f"at most {TARGET_FIRST_RUN_SECONDS:g} s, {met(first <= TARGET_FIRST_RUN_SECONDS)})"
        )
    else:
        print(
            f"a fresh clone's first make grade, setup included: not measured (BENCH_SETUP=1 measures it; target: at "
            f"most {TARGET_FIRST_RUN_SECONDS:g} s, NOT met: unmeasured)"
        )
    if course:
        print(course)
    print(machine())
