"""make bench's side by side: stock nbgrader against the kit on a realistic class, and the kit on an all-correct one.

The realistic class (autograder/tools/cohorts.py, its make-up the course's bench part's) is
graded by stock nbgrader (autograder/tools/stock.py) and by the kit's cold batch with one and
with two workers; an all-correct class of the same size by the kit with two workers. Each
batch runs in a fresh process (autograder/tools/scale.py). Figures are per learner.

Around each kit batch the whole machine's busy time is read from /proc/stat: the core-seconds a
batch keeps busy, with its sandboxes and workers (which getrusage cannot see once they are
reaped by processes it never waits for), and so how far two workers are from both cores.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from autograder.course import active
from autograder.tools import cohorts, stock
from autograder.tools.bench_targets import per_learner

edges = active.part("bench")


def busy_ticks(stat):
    """The ticks of /proc/stat's text ``stat`` that all cores spent busy (user, nice, system, irq, softirq), or None."""
    for line in stat.splitlines():
        fields = line.split()
        if fields[:1] == ["cpu"] and len(fields) >= 8:
            user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[1:8])
            return user + nice + system + irq + softirq
    return None


def busy_seconds():
    """Core-seconds the whole machine has spent busy since it started, or None where /proc cannot tell."""
    try:
        ticks = busy_ticks(Path("/proc/stat").read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None
    return None if ticks is None else ticks / os.sysconf("SC_CLK_TCK")  # /proc/stat counts in these ticks


def kit_batch(out, submissions, workers):
    """One cold kit batch in a fresh process; its figures (autograder/tools/scale.py) as a dict, with "busy": the
    core-seconds the machine spent busy meanwhile (None where /proc cannot tell)."""
    before = busy_seconds()
    completed = subprocess.run(
        [sys.executable, "-m", "autograder.tools.scale", str(out), str(submissions), "--workers", str(workers)],
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    )
    after = busy_seconds()
    figures = json.loads(completed.stdout.strip().splitlines()[-1])
    figures["busy"] = None if before is None or after is None else after - before
    return figures


def steps_table(columns, learners):
    """Rows of seconds per learner for each step; columns: {title: {step: seconds}}."""
    steps = []
    for figures in columns.values():
        steps += [step for step in figures if step not in steps]
    width = max(len(step) for step in steps) + 2
    lines = [" " * width + "".join(f"{title:>16}" for title in columns)]
    for step in steps:
        cells = "".join(
            f"{per_learner(figures[step], learners):>14.3f} s" if step in figures else f"{'':>16}"
            for figures in columns.values()
        )
        lines.append(f"{step:<{width}}{cells}")
    return lines


def makeup_words(learners):
    """The realistic class's make-up in words: "28 with one mistake from the zoo, 6 with a slow ...", kind by kind."""
    words = {kind: text for kind, _share, text in edges.CLASS}
    return ", ".join(f"{number} {words[kind]}" for kind, number in cohorts.makeup(learners) if number)


def side_by_side(work, learners, progress):
    """Stock nbgrader and the kit (1 and 2 workers) on a realistic class, the kit (2 workers) on an all-correct one."""
    print(f"\n== side by side: a realistic class of {learners} learners, 2 notebooks each, the same hand-ins for all")
    print(f"   {makeup_words(learners)}; each learner's code their own")
    progress("building the stock course's release notebooks and the learners' hand-ins")
    release = stock.release(stock.make_course(work / "release-course"))
    handins, correct = work / "handins", work / "correct-handins"
    cohorts.write(handins, release, cohorts.realistic_learners(learners))
    cohorts.write(correct, release, cohorts.correct_learners(learners))
    progress(f"stock nbgrader on {learners} learners (a kernel per notebook)")
    stock_steps = stock.grade(stock.make_course(work / "stock"), handins, stream=sys.stderr)
    runs = {}
    for workers in (1, 2):
        progress(f"the kit's batch, cold, {workers} worker(s), on the realistic class")
        runs[workers] = kit_batch(work / f"kit-{workers}", handins, workers)
    progress(f"the kit's batch, cold, 2 workers, on {learners} correct learners")
    right = kit_batch(work / "kit-correct", correct, 2)
    stock_seconds = sum(stock_steps.values())
    print(f"{'':<34}{'s per learner':>14}{'total':>10}")
    rows = [("stock nbgrader", stock_seconds), ("kit, 1 worker", runs[1]["seconds"])]
    rows += [("kit, 2 workers", runs[2]["seconds"]), ("kit, 2 workers, all correct", right["seconds"])]
    for label, seconds in rows:
        print(f"{label:<34}{per_learner(seconds, learners):>12.2f} s{seconds:>8.1f} s")
    print(
        f"the realistic class against the all-correct one, kit with 2 workers: "
        f"{runs[2]['seconds'] / right['seconds']:.2f}x the time per learner"
    )
    print(
        "where the time goes, seconds per learner (with 2 workers, the hidden checks are graded and feedback pages "
        "written during autograde, which waits only for the records it needs):"
    )
    columns = {
        "stock": stock_steps,
        "kit x1": runs[1]["steps"],
        "kit x2": runs[2]["steps"],
        "correct x2": right["steps"],
    }
    for line in steps_table(columns, learners):
        print("  " + line)
    return {
        "stock": stock_seconds,
        "kit1": runs[1]["seconds"],
        "kit2": runs[2]["seconds"],
        "correct2": right["seconds"],
        "busy1": runs[1]["busy"],
        "busy2": runs[2]["busy"],
        "learners": learners,
    }
