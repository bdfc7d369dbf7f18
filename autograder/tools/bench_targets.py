"""The targets of the kit's speed, and the summary of a `make bench` run that prints each beside its figure.

Targets are printed, never asserted: a shared machine's load moves wall-clock figures. A target
the run did not measure (otter not installed, one size in BENCH_SCALE, BENCH_SETUP unset) is
printed as not measured, with what measures it, and counted apart from the ones NOT met.
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


def verdict(ok):
    """met, NOT met, or, when ``ok`` is None (the run did not measure it), not measured."""
    return "not measured" if ok is None else met(ok)


class Targets:
    """The summary's target lines: each prints a figure (or what would measure it) and the target's verdict."""

    def __init__(self):
        self.verdicts = []

    def line(self, what, figure, target, ok):
        self.verdicts.append(verdict(ok))
        print(f"{what}: {figure} (target: {target}, {verdict(ok)})")

    def tally(self):
        counts = {word: self.verdicts.count(word) for word in ("met", "NOT met", "not measured")}
        return f"targets: {len(self.verdicts)}, " + ", ".join(f"{n} {word}" for word, n in counts.items())


def cores_line(compared):
    """What the cores allow two workers: the core-seconds each batch kept busy, and the speed-up over one worker
    were the two-worker batch's core-seconds spread over two cores busy from its start to its end."""
    kit1, kit2, busy1, busy2 = (compared[k] for k in ("kit1", "kit2", "busy1", "busy2"))
    return (
        f"  cores busy (the whole machine, /proc/stat): x1 {busy1:.1f} core-s in {kit1:.1f} s ({busy1 / kit1:.2f} "
        f"cores), x2 {busy2:.1f} core-s in {kit2:.1f} s ({busy2 / kit2:.2f}); those {busy2:.1f} core-s on two cores "
        f"busy throughout would take {busy2 / 2:.1f} s, {kit1 / (busy2 / 2):.2f}x over x1 (information)"
    )


def summary(compared, figures, course, fresh, warm, no_change=None, setup=None):
    """Every target beside its figure, met or NOT met, or not measured and what measures it; then how many of
    each, ``course`` (the course's own summary line), and the machine."""
    print("\n== summary (targets are shown, not asserted)")
    targets = Targets()
    n = compared["learners"]
    stock_each, kit1_each, kit2_each = (per_learner(compared[k], n) for k in ("stock", "kit1", "kit2"))
    ratio, ratio1 = stock_each / kit2_each, stock_each / kit1_each
    speedup = kit1_each / kit2_each
    print(
        f"seconds per learner ({n} learners, a realistic class): stock {stock_each:.2f}, kit x1 {kit1_each:.2f}, "
        f"kit x2 {kit2_each:.2f}"
    )
    if "correct2" in compared:
        right = per_learner(compared["correct2"], n)
        print(
            f"kit x2 on an all-correct class of {n}: {right:.2f} s per learner; the realistic class takes "
            f"{kit2_each / right:.2f}x that (information)"
        )
    targets.line(
        "stock / kit on the realistic class",
        f"{ratio:.1f}x with 2 workers, {ratio1:.1f}x with 1",
        f"at least {TARGET_STOCK_RATIO:g}x with 2 workers",
        ratio >= TARGET_STOCK_RATIO,
    )
    targets.line("2 workers over 1", f"{speedup:.2f}x", f"at least {TARGET_SPEEDUP:g}x", speedup >= TARGET_SPEEDUP)
    if compared.get("busy1") and compared.get("busy2"):
        print(cores_line(compared))
    memory_target = f"within {TARGET_MEMORY_GROWTH:.0%}"
    if len(figures) > 1:
        small, large = min(figures), max(figures)
        growth = figures[large]["batch_mib"] / figures[small]["batch_mib"] - 1
        children = figures[large]["children_mib"] / figures[small]["children_mib"] - 1
        targets.line(
            "peak RSS of the batch",
            f"{figures[small]['batch_mib']:.0f} MiB at {small} learners, {figures[large]['batch_mib']:.0f} MiB at "
            f"{large} ({growth:+.0%}; largest worker or sandbox {children:+.0%})",
            memory_target,
            abs(growth) <= TARGET_MEMORY_GROWTH,
        )
    else:
        targets.line(
            "peak RSS of the batch from the smallest cohort to the largest",
            'BENCH_SCALE names one size; two sizes measure it (BENCH_SCALE="100 1000")',
            memory_target,
            None,
        )
    targets.line(
        "one submission from a fresh process",
        f"{fresh['fresh']:.2f} s",
        f"at most {TARGET_FRESH_SECONDS:g} s",
        fresh["fresh"] <= TARGET_FRESH_SECONDS,
    )
    otter_target = f"at least {TARGET_OTTER_RATIO:g}x"
    if "otter" in fresh:
        times = fresh["otter"] / fresh["fresh"]
        figure = f"{times:.1f}x (otter run {fresh['otter']:.2f} s)"
        targets.line("otter run / the kit on one submission", figure, otter_target, times >= TARGET_OTTER_RATIO)
    else:
        why = fresh.get("otter_why", "otter is not installed here; installing it measures it")
        targets.line("otter run / the kit on one submission", why, otter_target, None)
    targets.line(
        "hidden checks of one correct submission, warm",
        f"{warm:.3f} s",
        f"at most {TARGET_WARM_SECONDS:g} s",
        warm <= TARGET_WARM_SECONDS,
    )
    no_change_target = f"at most {TARGET_NO_CHANGE_SECONDS:g} s"
    figure = "this run did not time it" if no_change is None else f"{no_change:.2f} s"
    ok = None if no_change is None else no_change <= TARGET_NO_CHANGE_SECONDS
    targets.line("make grade with nothing to do, the demo cohort", figure, no_change_target, ok)
    first_target = f"at most {TARGET_FIRST_RUN_SECONDS:g} s"
    if setup is not None:
        first = setup["setup"] + setup["first_grade"]
        figure, ok = f"{first:.0f} s (setup {setup['setup']:.0f} s)", first <= TARGET_FIRST_RUN_SECONDS
    else:
        figure, ok = "BENCH_SETUP=1 measures it", None
    targets.line("a fresh clone's first make grade, setup included", figure, first_target, ok)
    print(targets.tally())
    if course:
        print(course)
    print(machine())
