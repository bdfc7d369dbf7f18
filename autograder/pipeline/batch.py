"""Grade a whole cohort through nbgrader, with the hidden checks, in one command.

    make grade                     # the course's demo cohort (its demo part: autograder/course/active.py)
    make grade SUBMISSIONS=DIR     # DIR laid out as nbgrader's submitted/ folder:
                                   #   DIR/<student_id>/<assignment_id>/<notebook>.ipynb [+ timestamp.txt]
    make collect ZIP=download.zip  # an LMS download, read by autograder/pipeline/collect.py
    python -m autograder.pipeline.batch --help

OUT (default out/, `make grade OUT=...`) is an ordinary nbgrader course folder for
one cohort, and holds every output:

    gradebook.db             nbgrader's gradebook: every learner, every grade cell, its score
                             (or a PostgreSQL database: --db-url, remembered in nbgrader_config.py)
    grades.csv               what `nbgrader export` writes: one row per learner and lesson
    checks.csv               one row per learner, one column per hidden check id and answer cell (and provenance)
    provenance.csv           what made each grade: hand-in, checks, kit, Python, packages, isolation, when
    history.jsonl            every grade decided, appended, never rewritten (autograder/pipeline/history.py)
    feedback/<student>/<assignment>/<notebook>.html
                             nbgrader generate_feedback: scores and teaching messages
    results/<student>/<assignment>.json
                             Gradescope's results.json schema
    cohort_report.html       score distribution, pass rate of every check, common misconceptions
    nbgrader_config.py, source/, release/, submitted/, autograded/
                             the course as nbgrader works on it (copies of notebooks/, with
                             the cache added to the config; submitted/ mirrors the input)
    demo_submissions/        the demo cohort, when no input is given
    collected/submitted/     the hand-ins of a download, for ZIP= (autograder/pipeline/collect.py)
    logs/                    what nbgrader said at each step
    cache/                   graded records by hash, problems.json, state.json

The steps, each skipped when there is nothing new for it:

1. Copy the course into OUT; run nbgrader's generate_assignment when it changed, and put
   the due dates of the course config (``c.Deadlines.due``) in the gradebook. Given a
   submissions folder, the pictures of the lessons it holds are drawn meanwhile, in a child
   (autograder/pipeline/feedback_pool.py, Early), on the core this step leaves idle.
2. Mirror the input into OUT/submitted (autograder/pipeline/handins.py): metadata restored from the
   release notebooks, unreadable notebooks replaced by a stand-in that scores 0 with a
   message naming the problem and the fix.
3. Grade every notebook's code with the hidden checks, on --workers processes, before nbgrader
   runs on it (autograder/pipeline/pregrading.py); records are cached by a hash of the code, the
   grade cells and the grading code, so unchanged code is never graded twice. With two workers or
   more, nbgrader autogrades a hand-in as soon as its records are saved, while the workers grade
   the next ones; with one, the hidden checks come first.
4. nbgrader's autograde, whose Execute step is HiddenChecks (notebooks/nbgrader_config.py),
   which reads those records. It runs for the hand-ins whose files or grades changed,
   each with nbgrader's --force (its old autograded/ and feedback/ are replaced); the
   others are left exactly as they are. A hand-in nbgrader cannot process is graded
   again as unreadable, so one bad notebook never stops the batch.
5. nbgrader's generate_feedback for the hand-ins without feedback: with several workers, in
   those workers while step 4 goes on, each hand-in as soon as it is autograded
   (autograder/pipeline/feedback_pool.py). Then the exports and reports, each file written
   only when its content changes (autograder/pipeline/outputs.py).

A killed batch (SIGKILL at any moment) is simply run again. Only this process writes to the
gradebook, one hand-in at a time; cache/state.json marks a hand-in autograded, and then its
feedback written, only once nbgrader has finished that step for it, and drops the mark before
the step starts again, so a rerun redoes exactly the hand-ins a kill interrupted (with --force:
no duplicate rows, no half-written files). Graded records and every output file are written
to a temporary file and renamed into place; the pool's workers die with this process.

nbgrader's steps run through its Python API (nbgrader.apps.api.NbGraderAPI, the one its
formgrader uses): the same converters as the commands, configured by the same course
config, without paying nbgrader's start-up for every command. An LMS download is not given
to `nbgrader zip_collect`, which believes the file names inside archives that learners
upload: autograder/pipeline/collect.py reads it, trusting only the LMS's own names.
"""

import collections
import json
import sys
import time
from pathlib import Path

from autograder.course import active
from autograder.files import sha
from autograder.nbgrader.course_folder import BatchError, Course, remove
from autograder.pipeline import collect as download, command, handins, outputs, pregrading, terminal_table, unchanged
from autograder.pipeline.feedback_pool import Early, Feedback
from autograder.pipeline.pool import WORKERS
from autograder.pipeline.progress import Progress

# ---------------------------------------------------------------- step 4: nbgrader autograde


def signatures(course, keys):
    """{"student/assignment": hash of its files and grades}: what decides whether to autograde again."""
    inputs = collections.defaultdict(list)  # "student/assignment": its input files, in one pass over them
    for relative, signature in course.state["inputs"].items():
        inputs["/".join(relative.split("/", 2)[:2])].append((relative, signature))
    signed = {}
    for (student, assignment), relatives in course.submissions().items():
        files = sorted(inputs.get(f"{student}/{assignment}", ()))
        grades = sorted((r, keys.get(r, "")) for r in relatives)
        signed[f"{student}/{assignment}"] = sha(json.dumps([files, grades]).encode())
    return signed


def autograde(course, keys, changed, feedback=None, grading=None):
    """nbgrader autograde on every hand-in whose files or grades changed; return (those, the ones that failed).

    As with nbgrader's --force, a hand-in that is autograded again loses its old
    autograded/ and feedback/ folders first; hand-ins that did not change are left alone.
    A hand-in is marked graded in state.json only once nbgrader has committed all of it,
    and its mark is saved away before nbgrader starts on it: a hand-in a kill interrupted
    is never taken for graded. Each hand-in marked graded is handed to ``feedback`` (a
    Feedback writer whose workers write pages while the next hand-ins are autograded), if given.
    With ``grading`` (a pregrading.Grading whose workers grade the hidden checks meanwhile), a
    hand-in is autograded once its notebooks' records are saved.
    """
    wanted = signatures(course, keys)
    graded, fed = course.state["graded"], course.state["feedback"]
    for handin in sorted(set(graded) - set(wanted)):
        del graded[handin]
    for handin in sorted(set(fed) - set(wanted)):
        del fed[handin]
    dirty = {
        h for h, s in wanted.items() if graded.get(h) != s or not course.path("autograded", *h.split("/")).exists()
    }
    dirty |= {f"{s}/{a}" for s, a in changed if f"{s}/{a}" in wanted}
    if not dirty:
        return dirty, set()
    course.start_log("autograde")
    bar = Progress("nbgrader autograde", len(dirty), course.stream)
    if feedback is not None:
        feedback.expect(sorted(dirty))
    failed, notebooks = set(), course.submissions() if grading is not None else {}
    for handin in sorted(dirty):
        student, assignment = handin.split("/")
        if grading is not None:
            grading.wait(notebooks[(student, assignment)])
        marked = [graded.pop(handin, None), fed.pop(handin, None)]
        if marked != [None, None]:
            course.save_state()
        remove(course.path("feedback", student, assignment))
        if course.call("autograde", assignment, student, log="autograde")["success"]:
            graded[handin] = wanted[handin]
            course.save_state()
            if feedback is not None:
                feedback.add([handin])
        else:
            failed.add(handin)
        if feedback is not None:
            feedback.take(wait=False)
        bar.advance()
    bar.close()
    course.save_state()
    return dirty, failed


# ---------------------------------------------------------------- the whole batch


def collect(course, zip_file, assignment=None):
    """Lay out an LMS download in OUT/collected/submitted (autograder/pipeline/collect.py); return its Collected."""
    remove(course.root / "collected" / "downloaded")  # what nbgrader zip_collect left there, in older kits
    return download.collect(Path(zip_file).resolve(), course.root / "collected" / "submitted", assignment)


def run(out="out", submissions=None, zip_file=None, assignment=None, workers=WORKERS, stream=None, db_url=None):
    """Grade a cohort into ``out``; return the Cohort. Raises BatchError when it cannot run at all.

    ``db_url``: the gradebook, when not OUT/gradebook.db (autograder/nbgrader/gradebook_url.py); OUT remembers it.
    """
    stream = stream or sys.stderr
    course, early = Course(out, stream, db_url), Early()
    try:
        return _run(course, early, stream, submissions, zip_file, assignment, workers)
    finally:
        early.close()  # a batch stopped before its feedback: the pictures it started drawing are not waited for


def _run(course, early, stream, submissions, zip_file, assignment, workers):
    course.prepare(swept=(lambda: early.start(course, submissions)) if submissions and not zip_file else None)
    collected = None
    if zip_file:
        collected = collect(course, zip_file, assignment)
        source, label = collected.folder, "collected"
    elif submissions:
        source, label = Path(submissions), str(Path(submissions).resolve())
    else:
        dues = course.due_dates()
        source, label = course.root / "demo_submissions", "demo"
        active.part("demo").build(source, course.root / "release", dues)
    changed, notes = handins.mirror(course, source, label, collected.problems if collected else None)
    if collected:
        notes = collected.notes + notes
    course.remove_gone()
    grading = pregrading.Grading(course, workers)
    if workers <= 1:  # one worker: the hidden checks, then nbgrader, then feedback, in turn
        grading.finish()
    keys = grading.keys
    marks = outputs.read_marks(
        course
    )  # what graders set in the formgrader since the last run: the gradebook is the truth
    with Feedback(course, workers, marks, early) as writer:
        alongside = writer if workers > 1 else None  # one worker: feedback after autograde, in this process
        tried, failed = autograde(course, keys, changed, alongside, grading)
        grading.finish()
        if len(failed) > 1 and failed == tried:
            raise BatchError(f"nbgrader autograde failed on every hand-in:\n{course.log_tail('autograde')}")
        if failed:
            stream.write(
                f"nbgrader could not grade {', '.join(sorted(failed))}; grading them as unreadable notebooks\n"
            )
            handins.mark_unreadable(course, failed)
            keys = pregrading.pregrade(course, workers)
            _tried, failed = autograde(course, keys, set(), alongside)
            if failed:  # even the release notebook standing in for them fails: the course setup is broken
                raise BatchError(f"nbgrader autograde failed on release notebooks:\n{course.log_tail('autograde')}")
        unfinished = writer.finish()
    if unfinished:
        stream.write(f"no feedback for {', '.join(unfinished)}; see {course.logs / 'generate_feedback.log'}\n")
    cohort = outputs.write_outputs(course, keys, notes, marks)
    cohort.regraded = sorted(tried)
    cohort.refreshed = sorted(set(writer.written) - set(tried))  # pages written again for the gradebook's changes
    cohort.unfinished = list(unfinished)  # hand-ins left without feedback: the next run tries them again
    return cohort


def main(argv=None, started=None):
    """The batch's command line (autograder/pipeline/command.py); ``started``: when the command started.

    A complete run keeps what it printed, with the digest of its inputs taken before it read them and OUT's files as
    it leaves them (autograder/pipeline/unchanged.py), for the next make grade to answer with when nothing changed.
    """
    args = command.parser(__doc__, "python -m autograder.pipeline.batch").parse_args(argv)
    started = time.monotonic() if started is None else started
    digest = command.inputs_digest(args)
    unchanged.forget(args.out)
    try:
        cohort = run(args.out, args.submissions, args.zip, args.assignment, args.workers, db_url=args.db_url)
    except BatchError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    printed = [terminal_table.summary_table(cohort), *outputs.after_table(cohort)]
    for line in printed:
        print(line)
    out = Path(args.out)
    if cohort.regraded:
        done = f"graded {len(cohort.regraded)} hand-in(s) in {time.monotonic() - started:.1f} s"
    elif cohort.refreshed:
        done = "no hand-in changed, nothing was graded again"
    else:
        done = command.NOTHING
    if cohort.refreshed:
        done += (
            f"; grades or comments set by hand in the gradebook changed for {len(cohort.refreshed)} hand-in(s): "
            "their feedback pages were written again"
        )
    print(f"\n{done}; {command.DONE} {out}/")
    if digest and not cohort.unfinished:
        unchanged.remember(args.out, digest, printed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
