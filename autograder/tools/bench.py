"""Speed benchmarks (`make bench`): numbers to watch, never assertions in tests.

    python -m autograder.tools.bench
    BENCH_LEARNERS=40 BENCH_SCALE="100 1000" python -m autograder.tools.bench

One run first makes the course's store current (make prepare: what no submission changes,
autograder/grading/prepared.py), then prints, after the machine (cores, load average, memory):

1. one submission graded from a fresh process, the CLI path (`python -m autograder grade
   graph.py --json`, which is also Gradescope's run_autograder and CI's): wall seconds, median
   of FRESH_RUNS, on a copy of the reference module; beside it `otter run` on the same exercise
   when otter is installed (it stays out of the kit's dependencies: autograder/tools/otter.py);
2. the hidden checks on their own: the sandbox's round trip for a small call, the time to
   start a child, the first and a typical full submission in a warm process (median of
   WARM_RUNS), and each check family's time;
3. the course's own figures: its bench part's ``figures(progress)`` prints them, and gives the
   line the summary ends with (the graph course: the reference's time as its inputs grow);
4. side by side (autograder/tools/side_by_side.py), on the same BENCH_LEARNERS hand-ins
   (default 40 learners, two notebooks each): a realistic class made from the misconception
   zoo (autograder/tools/cohorts.py: mostly single mistakes, some slow or recursive sweeps, a
   few untouched notebooks and a few correct answers, in the course's fixed shares), graded by
   stock nbgrader (autograder/tools/stock.py: generate_assignment, autograde with tests run in
   a kernel, generate_feedback, export) and by the kit's cold batch (autograder.pipeline.batch.run)
   with 1 and with 2 workers; beside it an all-correct class of the same size graded by the
   kit with 2 workers; in seconds per learner, and where each spends its time;
5. the kit's batch at each cohort size of BENCH_SCALE (default "100 300"; "100 1000" for the
   memory at a thousand learners, about half an hour more): wall seconds per learner and peak
   memory. Those learners are byte-identical copies of one learner with the reference code:
   nbgrader and the batch handle every one of them, the hidden checks grade the code once;
6. make grade's command on the demo cohort once it has graded it: a run with nothing to do
   (autograder/pipeline/unchanged.py), median of first_run.NO_CHANGE_RUNS;
7. with BENCH_SETUP=1, a fresh clone of the kit: its .venv set up, its first make grade and a
   second one (autograder/tools/first_run.py, which writes the "setup" blocks of
   docs/performance.md and of the README).

The summary prints every target of the kit's speed beside its figure, met or NOT met, or not
measured and what measures it (otter installed, two sizes in BENCH_SCALE, BENCH_SETUP=1), then
how many targets are met, NOT met and not measured. Under "2 workers over 1" it says what the
cores allow: the core-seconds each kit batch of step 4 kept the machine busy, and the speed-up
two workers would reach were those of the two-worker batch spread over two cores busy throughout.

Every batch runs in a fresh process (autograder/tools/scale.py) in a fresh folder, so no
cache and no peak carries over. Targets are printed next to the figures, never asserted.
On a shared machine the wall-clock figures move with its load, so the load is printed too.
A run that completes writes what it printed into docs/performance.md (its "bench" block),
the one place the kit's speed figures are published.
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autograder.course import active
from autograder.course.lessons import module_of
from autograder.course.paths import REFERENCE, ROOT
from autograder.grading import prepared
from autograder.grading.runner import Runner, grade
from autograder.grading.submission import Chunk, Submission
from autograder.sandbox import cgroups, isolation
from autograder.sandbox.sandbox import Sandbox
from autograder.tools import cohorts, first_run, marked, otter
from autograder.tools.bench_targets import (  # the summary and its targets, as make bench prints them
    TARGET_FRESH_SECONDS,
    TARGET_NO_CHANGE_SECONDS,
    TARGET_WARM_SECONDS,
    machine,
    met,
    per_learner,
    summary,
)
from autograder.tools.side_by_side import kit_batch, side_by_side

# The course's parts the bench measures with (autograder/course/active.py), and the reference it grades.
checks, demo, edges = active.part("checks"), active.part("demo"), active.part("bench")
SOURCE = REFERENCE.read_text(encoding="utf-8")  # the submission the bench grades: the reference module


def module_checks():
    """The checks of the reference module's functions: what grading that module as a hand-in runs."""
    return [c for c in checks.all_checks() if module_of(c.function) == REFERENCE.stem]


PAGE = ROOT / "docs" / "performance.md"  # its "bench" block holds the last complete run's output


def small_call_seconds(calls=500):
    """The median round trip of the course's small call (its bench part's SMALL_CALL: a function and its arguments)."""
    function, args = edges.SMALL_CALL
    with Sandbox([Chunk("reference", SOURCE)]) as sandbox:
        sandbox.call(function, args)  # start the child first
        times = []
        for _ in range(calls):
            started = time.perf_counter()
            sandbox.call(function, args)
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def child_start_seconds(starts=5):
    times = []
    for _ in range(starts):
        started = time.perf_counter()
        with Sandbox([Chunk("reference", SOURCE)]) as sandbox:
            sandbox.call(*edges.SMALL_CALL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def family_seconds():
    totals = {}
    with Sandbox([Chunk("reference", SOURCE)]) as sandbox:
        runner = Runner(sandbox)
        for check in module_checks():
            started = time.perf_counter()
            runner.run(check)
            totals[check.family] = totals.get(check.family, 0.0) + time.perf_counter() - started
    return totals


def _cpu_seconds():
    """User + system time of this process (the grader: sending, reading, judging), not of the sandbox child."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


FRESH_RUNS = 9  # fresh-process runs; their median is reported (a shared machine's load moves single runs)
WARM_RUNS = 7  # warm-process submissions after the first; their median is reported


def settings(environ=None):
    """(learners side by side, cohort sizes for memory) from BENCH_LEARNERS and BENCH_SCALE."""
    environ = os.environ if environ is None else environ
    learners = int(environ.get("BENCH_LEARNERS", "40"))
    scale = tuple(int(n) for n in environ.get("BENCH_SCALE", "100 300").replace(",", " ").split())
    if learners < 1 or not scale or min(scale) < 1:
        raise ValueError("BENCH_LEARNERS and every size in BENCH_SCALE must be at least 1")
    return learners, scale


def progress(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the sections


def store_figures():
    """Make the course's store current in a fresh process (make prepare); say what that took and what it holds."""
    print("\n== the course's store (make prepare: drawn examples, large inputs, the reference's times)")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "autograder.tools.prepare"], check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    where = prepared.path()
    held = prepared.load(checks.all_checks(), where)
    state = "current" if not held.reason else f"NOT usable: {held.reason}"
    print(
        f"{where.relative_to(ROOT)}: {state}, {where.stat().st_size / 2**20:.1f} MiB; made current in {seconds:.1f} s "
        "(once per change of the sources, or once per Gradescope image)"
    )
    return held


def fresh_seconds(path, runs=FRESH_RUNS):
    """Wall seconds of ``python -m autograder grade PATH --json`` in a fresh process each time: (median, min, score)."""
    times, score = [], None
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "autograder", "grade", str(path), "--json"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        times.append(time.perf_counter() - started)
        score = json.loads(done.stdout)["score"]
    return statistics.median(times), min(times), score


def fresh_figures(work):
    """One submission from a fresh process (the CLI), and otter's `otter run` on the same exercise; the figures."""
    print("\n== one submission graded from a fresh process (the CLI path: Gradescope's run_autograder, CI)")
    handin = work / "fresh" / REFERENCE.name
    handin.parent.mkdir(parents=True)
    handin.write_text(SOURCE, encoding="utf-8")
    progress(f"python -m autograder grade {REFERENCE.name} --json, {FRESH_RUNS} fresh processes")
    median, fastest, score = fresh_seconds(handin)
    print(
        f"python -m autograder grade {REFERENCE.name} --json (score {score:g}): {median:.2f} s wall, median of "
        f"{FRESH_RUNS} (fastest {fastest:.2f} s; target: at most {TARGET_FRESH_SECONDS:g} s, "
        f"{met(median <= TARGET_FRESH_SECONDS)})"
    )
    figures = {"fresh": median}
    found = otter.executable()
    if found is None:
        print(f"otter run: otter is not installed here, so it is not compared ({otter.INSTALL})")
        figures["otter_why"] = "otter is not installed here; installing it measures it"
        return figures
    progress("otter run on the same exercise")
    try:
        figures["otter"] = seconds = otter.run_seconds(
            work / "otter", found, edges.otter_tests(), edges.OTTER_MODULE, SOURCE
        )
    except otter.OtterError as err:
        print(f"otter run: could not be measured: {err}")
        figures["otter_why"] = "otter run failed (see above)"
        return figures
    print(
        f"otter run on {edges.OTTER_MODULE}, {len(edges.otter_tests())} tests ({otter.version(found)}): "
        f"{seconds:.2f} s wall, median of {otter.RUNS}; the kit is {seconds / median:.1f}x faster"
    )
    return figures


def hidden_check_figures():
    print("\n== the hidden checks on their own")
    print(f"sandbox: {isolation.probe()[0]}; CPU time counted {'by cgroup' if cgroups.cgroup_base() else 'from /proc'}")
    print(f"child start (isolated, code loaded): {child_start_seconds() * 1000:.1f} ms")
    print(f"small call round trip (median of 500): {small_call_seconds() * 1e6:.0f} us")
    first = grade(
        Submission("warm-up", [Chunk("reference", SOURCE)]), module_checks()
    )  # the store read, answers cached
    print(
        f"first submission in this process (the store read, the reference's answers worked out): {first.seconds:.2f} s"
    )
    runs, cpu = [], []
    for _ in range(WARM_RUNS):
        before = _cpu_seconds()
        runs.append(grade(Submission("reference", [Chunk("reference", SOURCE)]), module_checks()).seconds)
        cpu.append(_cpu_seconds() - before)
    warm = statistics.median(runs)
    print(
        f"hidden checks of one correct submission of {REFERENCE.name} in a warm process, {len(module_checks())} checks "
        f"(median of {WARM_RUNS}): {warm:.3f} s, of which the grader's own CPU time {statistics.median(cpu):.3f} s "
        f"(target: at most {TARGET_WARM_SECONDS:g} s, {met(warm <= TARGET_WARM_SECONDS)})"
    )
    for family, seconds in sorted(family_seconds().items(), key=lambda item: -item[1]):
        print(f"  {family:<30} {seconds:.3f} s")
    return warm


def memory_figures(work, sizes, release):
    """The kit's batch at each cohort size, copies of one reference learner; return {size: figures}."""
    print(f"\n== the kit's batch at scale (2 workers): {', '.join(map(str, sizes))} learners")
    print("   each learner a byte-identical copy of one learner with the reference code: nbgrader autogrades,")
    print("   writes feedback for and exports every one of them; the hidden checks grade the code once (cached)")
    figures = {}
    for size in sizes:
        handins = work / f"copies-{size}"
        cohorts.write(handins, release, [demo.Learner("model", "the reference code and answers")], signed=False)
        cohorts.copy_learner(handins, "model", size)
        progress(f"the kit's batch on {size} identical learners")
        figures[size] = run = kit_batch(work / f"scale-{size}", handins, 2)
        print(
            f"  {size:>5} learners: {per_learner(run['seconds'], size):.2f} s per learner ({run['seconds']:.0f} s); "
            f"batch process: peak RSS {run['batch_mib']:.0f} MiB, {run['end_mib']:.0f} MiB at the end; "
            f"largest worker or sandbox: {run['children_mib']:.0f} MiB"
        )
        print(
            "         batch's peak RSS as each step ended: "
            + ", ".join(f"{step} {mib:.0f}" for step, mib in run["peaks_mib"].items())
            + " (MiB)"
        )
    return figures


def no_change_figures(work):
    """make grade's command on the demo cohort, graded once, then timed with nothing to do; the median."""
    print("\n== a make grade that finds nothing changed (the demo cohort, graded once first)")
    progress("the demo cohort graded by make grade's command, then again with nothing changed")
    median, fastest = first_run.no_change_seconds(work / "demo")
    print(
        f"make grade with nothing to do: {median:.2f} s wall, median of {first_run.NO_CHANGE_RUNS} (fastest "
        f"{fastest:.2f} s; target: at most {TARGET_NO_CHANGE_SECONDS:g} s, {met(median <= TARGET_NO_CHANGE_SECONDS)})"
    )
    return median


def setup_figures(work):
    """With BENCH_SETUP=1, a fresh clone's setup and first make grade (autograder/tools/first_run.py); else None."""
    if os.environ.get("BENCH_SETUP") != "1":
        return None
    print("\n== a first run: a fresh clone's .venv, its first make grade and a second one (BENCH_SETUP=1)")
    progress("git clone, make .venv/.ready, make grade twice, in a temporary folder")
    found = first_run.setup_figures(work / "setup")
    tool = first_run.installer(work / "setup" / "clone" / ".venv")
    print(first_run.write_pages(found, tool, time.strftime("%Y-%m-%d")))
    return found


def page_block(output, learners, sizes, day):
    """The "bench" block of docs/performance.md: the settings and day of a run, then what it printed."""
    scale = " ".join(map(str, sizes))
    return (
        f'`make bench` with BENCH_LEARNERS={learners} BENCH_SCALE="{scale}", run on {day}:\n\n'
        f"```\n{output.strip()}\n```"
    )


def main():
    learners, sizes = settings()
    with marked.recorded() as printed:
        print(machine())
        started = time.perf_counter()
        store_figures()
        with tempfile.TemporaryDirectory(prefix="graphkit-bench-") as folder:
            work = Path(folder)
            fresh = fresh_figures(work)
            warm = hidden_check_figures()
            course = edges.figures(progress)
            compared = side_by_side(work, learners, progress)
            figures = memory_figures(work, sizes, work / "release-course" / "release")
            no_change = no_change_figures(work)
            setup = setup_figures(work)
        summary(compared, figures, course, fresh, warm, no_change, setup)
        print(f"(the whole benchmark took {(time.perf_counter() - started) / 60:.1f} min)")
    marked.rewrite(
        PAGE, "bench", page_block(printed.copy.getvalue(), learners, sizes, time.strftime("%Y-%m-%d")), "make bench"
    )
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
