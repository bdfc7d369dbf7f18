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
   the due dates of the course config (``c.Deadlines.due``) in the gradebook.
2. Mirror the input into OUT/submitted (autograder/pipeline/handins.py): metadata restored from the
   release notebooks, unreadable notebooks replaced by a stand-in that scores 0 with a
   message naming the problem and the fix.
3. Grade every notebook's code with the hidden checks, on --workers processes, before nbgrader
   runs; records are cached by a hash of the code, the grade cells and the grading code,
   so unchanged code is never graded twice.
4. nbgrader's autograde, whose Execute step is HiddenChecks (notebooks/nbgrader_config.py),
   which reads those records. It runs for the hand-ins whose files or grades changed,
   each with nbgrader's --force (its old autograded/ and feedback/ are replaced); the
   others are left exactly as they are. A hand-in nbgrader cannot process is graded
   again as unreadable, so one bad notebook never stops the batch.
5. nbgrader's generate_feedback for the hand-ins without feedback: with several workers, in
   those workers while step 4 goes on, each hand-in as soon as it is autograded. Then the
   exports and reports, each file written only when its content changes.

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
import ctypes
import datetime
import io
import json
import os
import signal
import sys
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from autograder.course import active
from autograder.course.lessons import LESSONS, function_of
from autograder.files import sha, write_atomic, write_if_changed
from autograder.grading import cellgrades
from autograder.nbgrader import hidden_checks, manual_grades
from autograder.nbgrader.course_folder import BatchError, Course, remove
from autograder.pipeline import cohort_report, grade, handins, timestamps, unchanged
from autograder.pipeline import collect as download
from autograder.pipeline.ledger import Ledger
from autograder.pipeline.progress import Progress

WORKERS = os.cpu_count() or 2  # worker processes of the hidden checks and of the feedback: every core
AHEAD = 2  # jobs handed to the pool per worker before their results are taken: the pool never holds more
SECONDS = "seconds"  # OUT/cache/seconds/<record key>: how long the hidden checks took on that code


# ---------------------------------------------------------------- step 3: grading ahead of nbgrader


def _die_with(parent):
    """Pool initializer: the worker is killed when the batch process dies, even by SIGKILL.

    Otherwise a worker left without its parent waits for work forever.
    """
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the batch died before the line above
        os._exit(1)


def _streamed(pool, work, jobs, window):
    """work(job) for every job, in pool, at most ``window`` at a time; yield the results as they finish."""
    jobs = iter(jobs)
    running = {pool.submit(work, job) for job in _take(jobs, window)}
    while running:
        finished, running = wait(running, return_when=FIRST_COMPLETED)
        running |= {pool.submit(work, job) for job in _take(jobs, len(finished))}
        for future in finished:
            yield future.result()


def _take(jobs, count):
    return [job for _, job in zip(range(count), jobs)]


def _outcome(future):
    try:
        return future.result()
    except Exception:  # noqa: BLE001 - a worker that died fails its own hand-in only
        return {"success": False, "error": traceback.format_exc()}


def _grade_job(job):
    """Grade one notebook in a worker: (record key, record or None, seconds the hidden checks took, error)."""
    key, root, relative, settings, points, tests = job
    name = relative.rsplit("/", 1)[1]
    try:
        nb = json.loads((Path(root) / "submitted" / relative).read_text(encoding="utf-8"))
        chunks, notes = cellgrades.chunks_of(nb, name, tests)
        started = time.perf_counter()
        record = cellgrades.grade_record(chunks, points, notes, name, settings)
        return key, record, round(time.perf_counter() - started, 3), ""
    except Exception as err:  # noqa: BLE001 - one notebook's failure must not stop the others
        return key, None, 0.0, f"{type(err).__name__}: {err}"


def seconds_of(course, key):
    """The seconds the hidden checks took on the code of record ``key`` when it was graded (0.0 if unknown)."""
    try:
        return float((course.cache / SECONDS / key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0.0


def pregrade(course, workers=WORKERS):
    """Grade every submitted notebook into the cache; return {relative path: record key or problem}.

    Notebooks are read one at a time to find their record key, and only the paths of the
    ones to grade are kept: each worker reads its notebook again, and each record is saved
    as it comes back (with the seconds its grading took, written first), so neither the
    notebooks nor the records of the cohort are ever held together.
    """
    cells = course.grade_cells()
    problems = course.problems()
    settings = hidden_checks.course_settings(course.config())  # c.HiddenChecks.limits and .shrink
    try:
        cellgrades.limits_of(settings)
    except ValueError as err:
        raise BatchError(f"{course.root / 'nbgrader_config.py'}: {err}") from None
    keys, todo = {}, {}
    for (student, assignment), relatives in sorted(course.submissions().items()):
        points, tests = cells[assignment]
        for relative in relatives:
            if relative in problems:
                keys[relative] = "problem:" + sha(problems[relative].encode())
                continue
            name = relative.rsplit("/", 1)[1]
            nb = json.loads((course.root / "submitted" / relative).read_text(encoding="utf-8"))
            chunks, notes = cellgrades.chunks_of(nb, name, tests)
            key = cellgrades.record_key(chunks, points, notes, settings)
            keys[relative] = key
            if key not in todo and cellgrades.load_record(course.cache, key) is None:
                todo[key] = (relative, assignment)
    if todo:
        # Longest first (the notebooks with the most hidden checks), so no worker is left with a long one at the end.
        checks_per_function = collections.Counter(check.function for check in active.part("checks").all_checks())

        def longest_first(item):
            points = cells[item[1][1]][0]
            return -sum(checks_per_function[function_of(grade_id)] for grade_id in points), -len(points)

        ordered = sorted(todo.items(), key=longest_first)
        jobs = ((key, str(course.root), relative, settings, *cells[assignment]) for key, (relative, assignment) in ordered)
        bar = Progress("hidden checks", len(ordered), course.stream)
        from autograder.grading.runner import warm  # grading's imports only when there is something to grade

        warm()  # once, here: the workers forked below share the checks' inputs and the reference's answers
        with ProcessPoolExecutor(max_workers=max(1, workers), initializer=_die_with, initargs=(os.getpid(),)) as pool:
            for key, record, seconds, error in _streamed(pool, _grade_job, jobs, AHEAD * max(1, workers)):
                if record is not None:
                    write_atomic(course.cache / SECONDS / key, f"{seconds}\n")
                    cellgrades.save_record(course.cache, key, record)
                else:
                    bar.write(f"grading failed for one notebook ({error}); nbgrader will grade it again")
                bar.advance()
        bar.close()
    return keys


# ---------------------------------------------------------------- step 4 and 5: nbgrader


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


def autograde(course, keys, changed, feedback=None):
    """nbgrader autograde on every hand-in whose files or grades changed; return (those, the ones that failed).

    As with nbgrader's --force, a hand-in that is autograded again loses its old
    autograded/ and feedback/ folders first; hand-ins that did not change are left alone.
    A hand-in is marked graded in state.json only once nbgrader has committed all of it,
    and its mark is saved away before nbgrader starts on it: a hand-in a kill interrupted
    is never taken for graded. Each hand-in marked graded is handed to ``feedback`` (a
    Feedback writer whose workers write pages while the next hand-ins are autograded), if given.
    """
    wanted = signatures(course, keys)
    graded, fed = course.state["graded"], course.state["feedback"]
    for handin in sorted(set(graded) - set(wanted)):
        del graded[handin]
    for handin in sorted(set(fed) - set(wanted)):
        del fed[handin]
    dirty = {h for h, s in wanted.items() if graded.get(h) != s or not course.path("autograded", *h.split("/")).exists()}
    dirty |= {f"{s}/{a}" for s, a in changed if f"{s}/{a}" in wanted}
    if not dirty:
        return dirty, set()
    course.start_log("autograde")
    bar = Progress("nbgrader autograde", len(dirty), course.stream)
    if feedback is not None:
        feedback.expect(len(dirty))
    failed = set()
    for handin in sorted(dirty):
        student, assignment = handin.split("/")
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


def write_feedback(course, assignment, student):
    """nbgrader generate_feedback for one hand-in, in this process, its old feedback removed first; nbgrader's result."""
    remove(course.path("feedback", student, assignment))
    return course.run("generate_feedback", assignment, student)


_worker_course = []  # a feedback worker's own Course on OUT, with its own nbgrader API


def _feedback_worker(parent, root):
    """Pool initializer: a feedback worker dies with the batch, and opens OUT with an nbgrader API of its own."""
    _die_with(parent)
    _worker_course.append(Course(root, io.StringIO()))


def _feedback_job(handin):
    student, assignment = handin.split("/")
    try:
        return write_feedback(_worker_course[0], assignment, student)
    except Exception:  # noqa: BLE001 - reported as this hand-in's failure
        return {"success": False, "error": traceback.format_exc()}


class Feedback:
    """nbgrader generate_feedback for hand-ins handed over as they are ready, in ``workers`` processes.

    Feedback counts as finished once state.json marks it so, which happens only after
    nbgrader wrote all of it: a page a kill cut off is written again. generate_feedback
    only reads the gradebook, so with several workers it runs in that many processes, each
    with its own nbgrader API writing page after page, while this process autogrades the
    next hand-ins (the gradebook's one writer). With one worker, pages are written here, in
    ``finish``, once autograde is done. A hand-in's mark is dropped before its page is
    started; results are taken in the order hand-ins were handed over, and this process
    alone writes the log and state.json, marking each hand-in once its pages are written.
    """

    def __init__(self, course, workers=1, marks=None):
        self.course = course
        self.marks = {h: manual_grades.digest(m) for h, m in (marks or {}).items()}  # hand-in: what graders set
        self.written = []  # hand-ins whose pages were written in this run
        self.workers = max(1, workers)
        self.pool = None
        self.queue = collections.deque()  # (hand-in, its future; None: to be written in this process)
        self.handed = set()
        self.failed = []
        self.bar = None
        self.expected = 0  # hand-ins announced by ``expect`` and not handed over yet: the bar counts them already

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        if self.bar is not None:
            self.bar.close()

    def mark(self, handin):
        """What state.json keeps once a hand-in's feedback is written: its autograde mark, with its manual marks if any.

        A grader's change in the formgrader changes it, so the page is written again; autograding is not redone.
        """
        graded = self.course.state["graded"][handin]
        marks = self.marks.get(handin, "")
        return sha(f"{graded}/{marks}".encode()) if marks else graded

    def expect(self, count):
        """``count`` hand-ins will be handed over one by one (by autograde): the progress bar counts them from now."""
        self._count(count)
        self.expected += count

    def _count(self, more):
        """``more`` steps on the progress bar, opened (with the log) the first time."""
        if self.bar is None:
            self.course.start_log("generate_feedback")
            self.bar = Progress("nbgrader feedback", more, self.course.stream)
        elif more:
            self.bar.extend(more)

    def add(self, handins):
        """Start the feedback of ``handins`` (autograded, and marked so), in a worker if there are several."""
        handins = [h for h in handins if h not in self.handed]
        if not handins:
            return
        course, fed = self.course, self.course.state["feedback"]
        announced = min(self.expected, len(handins))
        self.expected -= announced
        self._count(len(handins) - announced)
        if [fed.pop(handin, None) for handin in handins] != [None] * len(handins):
            course.save_state()
        if self.workers > 1 and self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_feedback_worker,
                                            initargs=(os.getpid(), str(course.root)))
        for handin in handins:
            self.handed.add(handin)
            self.queue.append((handin, self.pool.submit(_feedback_job, handin) if self.pool else None))

    def take(self, wait=True):
        """Mark the hand-ins whose feedback is done, in the order they were handed over; with ``wait``, all of them."""
        course = self.course
        fed = course.state["feedback"]
        while self.queue and (wait or (self.queue[0][1] is not None and self.queue[0][1].done())):
            handin, future = self.queue.popleft()
            student, assignment = handin.split("/")
            result = _outcome(future) if future is not None else write_feedback(course, assignment, student)
            if course.call("generate_feedback", assignment, student, log="generate_feedback",
                           runner=lambda step, *args: result)["success"]:
                fed[handin] = self.mark(handin)
                self.written.append(handin)
                course.save_state()
            else:
                self.failed.append(handin)
            self.bar.advance()

    def finish(self):
        """Feedback for every autograded hand-in still without finished feedback; return the ones that failed."""
        graded, fed = self.course.state["graded"], self.course.state["feedback"]
        self.add([
            h for h in sorted(graded)
            if (fed.get(h) != self.mark(h) or not self.course.path("feedback", *h.split("/")).exists())
            and self.course.path("autograded", *h.split("/")).exists()
        ])
        self.take()
        return self.failed


# ---------------------------------------------------------------- outputs


def read_marks(course):
    """{"student/assignment": marks} of the hand-ins a grader scored or commented on by hand (manual_grades.read)."""
    with course.gradebook() as gradebook:
        return manual_grades.read(gradebook)


def release_keys(course):
    """{assignment: the record key of its release notebook}: a hand-in with that key was handed in untouched."""
    settings = hidden_checks.course_settings(course.config())
    found = {}
    for assignment, (points, tests) in course.grade_cells().items():
        lesson = next(l for l in LESSONS if l.assignment == assignment)
        try:
            nb = json.loads(course.release(lesson).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        chunks, notes = cellgrades.chunks_of(nb, lesson.notebook, tests)
        found[assignment] = cellgrades.record_key(chunks, points, notes, settings)
    return found


def learner_entries(course, keys, scores, cells, answer_grades, marks=None, untouched=None):
    """(student, {assignment: Entry}) for every learner of ``scores``, one learner at a time, in ``scores``' order.

    ``scores`` is the gradebook's {student: {assignment: (score, late seconds, penalty)}}; ``marks``
    what graders set by hand (read_marks), ``untouched`` the record key of each release notebook
    (release_keys). Each learner's graded records are read from the cache as that learner comes
    up, and are theirs alone: nothing of one learner is kept for the next.
    """
    marks, untouched = marks or {}, untouched or {}
    problems = course.problems()
    for student, handed_in in scores.items():
        entries = {}
        for lesson in LESSONS:
            if lesson.assignment not in handed_in:
                continue
            score, late_seconds, penalty = handed_in[lesson.assignment]
            relative = f"{student}/{lesson.assignment}/{lesson.notebook}"
            problem = problems.get(relative, "")
            record, seconds = None, 0.0
            if problem:
                record = cellgrades.problem_record(problem, cells[lesson.assignment], lesson.notebook)
            elif relative in keys:
                record = cellgrades.load_record(course.cache, keys[relative])
                seconds = seconds_of(course, keys[relative])
            record = record or {"checks": [], "cells": {}, "results": {}}
            answers = {g: not c["errors"] for g, c in record["cells"].items() if g in answer_grades}
            entries[lesson.assignment] = cohort_report.Entry(
                status="unreadable" if problem else "graded",
                score=score,
                late_seconds=late_seconds,
                penalty=penalty,
                problem=problem,
                checks=record["checks"],
                answers=answers,
                results=record["results"],
                seconds=seconds,
                manual=marks.get(f"{student}/{lesson.assignment}", {}),
                untouched=not problem and relative in keys and keys[relative] == untouched.get(lesson.assignment),
            )
        yield student, entries


def results_of(entry):
    """A hand-in's results.json: the record's, with the gradebook's score (grades set by hand, the late penalty).

    ``score`` is the gradebook's, as grades.csv, the feedback page and the report show it;
    ``autograded_score`` what the hidden checks gave; ``graded_by_hand`` and ``comments``
    what a grader set in the formgrader. The output ends with a line for each.
    """
    results = dict(entry.results)
    autograded, most = results.get("score", 0.0), results.get("max_score")
    grades, comments = entry.manual.get("grades", {}), entry.manual.get("comments", {})
    lines = []
    for cell, grade in grades.items():
        given = f"{grade['score']:g}/{grade['max_score']:g}" if grade["score"] is not None else "as autograded"
        extra = f", {grade['extra_credit']:+g} extra credit" if grade["extra_credit"] else ""
        auto = f" (the hidden checks gave {grade['auto_score']:g})" if grade["auto_score"] is not None else ""
        lines.append(f"graded by hand: {cell} {given}{extra}{auto}")
    lines += [f"comment on {cell}: {text}" for cell, text in comments.items()]
    if entry.penalty:
        lines.append(f"late by {timestamps.duration(entry.late_seconds)}: the late policy took {entry.penalty:g} points")
    score = round(entry.score, 4)
    if lines:
        lines.append(f"score: {score:g}" + (f"/{most:g}" if most is not None else ""))
        results["output"] = "\n".join([results.get("output", "").rstrip("\n"), *lines]).lstrip("\n")
    results.update(score=score, autograded_score=autograded, late_seconds=round(entry.late_seconds, 1),
                   late_penalty=entry.penalty)
    if grades:
        results["graded_by_hand"] = grades
    if comments:
        results["comments"] = comments
    return results


def write_results(course, student, entries, ledger=None):
    """results/<student>/<assignment>.json of one learner's hand-ins, each rewritten only when it changes, with its
    provenance under extra_data when a ``ledger`` (autograder/pipeline/ledger.py) is given; return {assignment: results}."""
    written = {}
    for assignment, entry in entries.items():
        results = results_of(entry)
        if ledger is not None:
            results = ledger.stamped(student, assignment, results)
        path = course.root / "results" / student / f"{assignment}.json"
        write_if_changed(path, json.dumps(results, indent=2, sort_keys=True) + "\n")
        written[assignment] = results
    return written


def today():
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


def report_page(course, report, name):
    """The cohort report's page, dated the day its content last changed (kept in state.json): a rerun changes nothing."""
    undated = report.html_page(course=name)
    content = sha(undated.encode())
    kept = course.state.get("report", {})
    if kept.get("content") != content or not kept.get("date"):
        course.state["report"] = {"content": content, "date": today()}
        course.save_state()
    return report.html_page(course=name, date=course.state["report"]["date"])


def write_outputs(course, keys, notes, marks=None):
    """grades.csv, checks.csv, results/*.json and cohort_report.html, each rewritten only when it changes.

    The cohort is streamed: learner after learner, their records are read, their results
    files written and their row added to the report (cohort_report.Report), then the records
    are let go. Returns the Cohort of every learner's row (scores, lateness, problems), without
    the records.
    """
    from autograder.grading.answers import answer_cells
    all_checks = active.part("checks").all_checks

    # Only the lessons the input holds (a download holds one): no rows, columns or totals for the others.
    held = {assignment for _student, assignment in course.submissions()} or {l.assignment for l in LESSONS}
    course.export_grades(held)  # what `nbgrader export` writes
    answer_grades = answer_cells()
    most, scores = course.gradebook_scores()
    cells = {assignment: points for assignment, (points, _tests) in course.grade_cells().items()}
    lessons = [cohort_report.Lesson(l.assignment, l.notebook, most[l.assignment]) for l in LESSONS if l.assignment in held]
    functions = {function_of(g) for a in held for g in cells[a]}
    checks = [(c.id, c.function, c.points) for c in all_checks() if len(held) == len(LESSONS) or c.function in functions]
    rules = {c.id: c.rule for c in all_checks()}
    answer_ids = [g for l in LESSONS if l.assignment in held for g in cells[l.assignment] if g in answer_grades]
    report = cohort_report.Report(lessons, checks, answer_ids, notes, rules=rules)
    entries_of = learner_entries(course, keys, scores, cells, answer_grades, marks, release_keys(course))
    ledger = Ledger(course, keys)  # each grade's provenance; new decisions appended to OUT/history.jsonl
    for student, entries in entries_of:
        ledger.add(student, write_results(course, student, entries, ledger))
        report.add(student, entries)
    write_if_changed(course.root / "checks.csv", ledger.checks_csv(report.checks_csv()))
    ledger.finish()
    name = str(course.config().CourseDirectory.get("course_id", "") or "")
    write_if_changed(course.root / "cohort_report.html", report_page(course, report, name))
    return report.cohort


def missing_report(cohort):
    lines = []
    for student in sorted(cohort.learners):
        for lesson in cohort.lessons:
            entry = cohort.entry(student, lesson.assignment)
            if entry.status == "missing":
                lines.append(f"missing: {student} handed in nothing for {lesson.assignment}")
            elif entry.late_seconds > 0:
                cost = f"; the late policy took {entry.penalty:g} points" if entry.penalty else ""
                lines.append(f"late: {student} handed in {lesson.assignment} {timestamps.duration(entry.late_seconds)} after the due date{cost}")
            if entry.status == "unreadable":
                lines.append(f"unreadable: {student}/{lesson.assignment}: {entry.problem}")
    return lines


NOTES_SHOWN = 10  # notes on skipped inputs printed under the table; the report and checks.csv hold every one


def after_table(cohort, width=cohort_report.TERMINAL):
    """The lines printed under the table, none longer than ``width``: the notes on skipped inputs (the first
    NOTES_SHOWN), then the late and unreadable hand-ins; missing ones are counted (the table shows them as "-")."""
    lines = missing_report(cohort)
    missing = sum(line.startswith("missing: ") for line in lines)
    said = cohort.notes[:NOTES_SHOWN] + [line for line in lines if not line.startswith("missing: ")]
    shown = [cohort_report.clip(line, width) for line in said]
    if len(cohort.notes) > NOTES_SHOWN:
        shown.insert(NOTES_SHOWN, f"... and {len(cohort.notes) - NOTES_SHOWN} note(s) more")
    if missing:
        shown.append(f"{missing} hand-in(s) not handed in (- in the table)")
    if shown != said or len(cohort.notes) > NOTES_SHOWN:
        shown.append("cohort_report.html (Hand-ins that need a look) and checks.csv (problems) give every note in full")
    return shown


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
    course = Course(out, stream, db_url)
    course.prepare()
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
    keys = pregrade(course, workers)
    marks = read_marks(course)  # what graders set in the formgrader since the last run: the gradebook is the truth
    with Feedback(course, workers, marks) as writer:
        alongside = writer if workers > 1 else None  # one worker: feedback after autograde, in this process
        tried, failed = autograde(course, keys, changed, alongside)
        if len(failed) > 1 and failed == tried:
            raise BatchError(f"nbgrader autograde failed on every hand-in:\n{course.log_tail('autograde')}")
        if failed:
            stream.write(f"nbgrader could not grade {', '.join(sorted(failed))}; grading them as unreadable notebooks\n")
            handins.mark_unreadable(course, failed)
            keys = pregrade(course, workers)
            _tried, failed = autograde(course, keys, set(), alongside)
            if failed:  # even the release notebook standing in for them fails: the course setup is broken
                raise BatchError(f"nbgrader autograde failed on release notebooks:\n{course.log_tail('autograde')}")
        unfinished = writer.finish()
    if unfinished:
        stream.write(f"no feedback for {', '.join(unfinished)}; see {course.logs / 'generate_feedback.log'}\n")
    cohort = write_outputs(course, keys, notes, marks)
    cohort.regraded = sorted(tried)
    cohort.refreshed = sorted(set(writer.written) - set(tried))  # pages written again for the gradebook's changes
    cohort.unfinished = list(unfinished)  # hand-ins left without feedback: the next run tries them again
    return cohort


def main(argv=None, started=None):
    """The batch's command line (autograder/pipeline/grade.py's parser); ``started``: when the command started.

    A complete run keeps what it printed, with the digest of its inputs taken before it read them and OUT's files as
    it leaves them (autograder/pipeline/unchanged.py), for the next make grade to answer with when nothing changed.
    """
    args = grade.parser(__doc__, "python -m autograder.pipeline.batch").parse_args(argv)
    started = time.monotonic() if started is None else started
    digest = grade.inputs_digest(args)
    unchanged.forget(args.out)
    try:
        cohort = run(args.out, args.submissions, args.zip, args.assignment, args.workers, db_url=args.db_url)
    except BatchError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    printed = [cohort_report.summary_table(cohort), *after_table(cohort)]
    for line in printed:
        print(line)
    out = Path(args.out)
    if cohort.regraded:
        done = f"graded {len(cohort.regraded)} hand-in(s) in {time.monotonic() - started:.1f} s"
    elif cohort.refreshed:
        done = "no hand-in changed, nothing was graded again"
    else:
        done = grade.NOTHING
    if cohort.refreshed:
        done += (f"; grades or comments set by hand in the gradebook changed for {len(cohort.refreshed)} hand-in(s): "
                 "their feedback pages were written again")
    print(f"\n{done}; {grade.DONE} {out}/")
    if digest and not cohort.unfinished:
        unchanged.remember(args.out, digest, printed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
