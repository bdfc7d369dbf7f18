"""The batch's outputs: results/*.json, checks.csv, the cohort report, and the lines printed under the table."""

import datetime
import json

from autograder.course import active
from autograder.course.lessons import LESSONS, function_of
from autograder.files import sha, write_if_changed
from autograder.grading import cellgrades
from autograder.nbgrader import hidden_checks, manual_grades
from autograder.pipeline import cohort_report, terminal_table, timestamps
from autograder.pipeline.ledger import Ledger
from autograder.pipeline.pregrading import seconds_of


def read_marks(course):
    """{"student/assignment": marks} of the hand-ins a grader scored or commented on by hand (manual_grades.read)."""
    with course.gradebook() as gradebook:
        return manual_grades.read(gradebook)


def release_keys(course):
    """{assignment: the record key of its release notebook}: a hand-in with that key was handed in untouched."""
    settings = hidden_checks.course_settings(course.config())
    found = {}
    for assignment, (points, tests) in course.grade_cells().items():
        lesson = next(each for each in LESSONS if each.assignment == assignment)
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
        lines.append(
            f"late by {timestamps.duration(entry.late_seconds)}: the late policy took {entry.penalty:g} points"
        )
    score = round(entry.score, 4)
    if lines:
        lines.append(f"score: {score:g}" + (f"/{most:g}" if most is not None else ""))
        results["output"] = "\n".join([results.get("output", "").rstrip("\n"), *lines]).lstrip("\n")
    results.update(
        score=score, autograded_score=autograded, late_seconds=round(entry.late_seconds, 1), late_penalty=entry.penalty
    )
    if grades:
        results["graded_by_hand"] = grades
    if comments:
        results["comments"] = comments
    return results


def write_results(course, student, entries, ledger=None):
    """results/<student>/<assignment>.json of one learner's hand-ins, each rewritten only when it changes, with its
    provenance under extra_data when a ``ledger`` (autograder/pipeline/ledger.py) is given; return {assignment:
    results}."""
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
    """The cohort report's page, dated the day its content last changed (kept in state.json): a rerun changes
    nothing."""
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
    held = {assignment for _student, assignment in course.submissions()} or {lesson.assignment for lesson in LESSONS}
    course.export_grades(held)  # what `nbgrader export` writes
    answer_grades = answer_cells()
    most, scores = course.gradebook_scores()
    cells = {assignment: points for assignment, (points, _tests) in course.grade_cells().items()}
    lessons = [
        cohort_report.Lesson(lesson.assignment, lesson.notebook, most[lesson.assignment])
        for lesson in LESSONS
        if lesson.assignment in held
    ]
    functions = {function_of(g) for a in held for g in cells[a]}
    checks = [
        (c.id, c.function, c.points) for c in all_checks() if len(held) == len(LESSONS) or c.function in functions
    ]
    rules = {c.id: c.rule for c in all_checks()}
    answer_ids = [
        g for lesson in LESSONS if lesson.assignment in held for g in cells[lesson.assignment] if g in answer_grades
    ]
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
                after = timestamps.duration(entry.late_seconds)
                lines.append(f"late: {student} handed in {lesson.assignment} {after} after the due date{cost}")
            if entry.status == "unreadable":
                lines.append(f"unreadable: {student}/{lesson.assignment}: {entry.problem}")
    return lines


NOTES_SHOWN = 10  # notes on skipped inputs printed under the table; the report and checks.csv hold every one


def after_table(cohort, width=terminal_table.TERMINAL):
    """The lines printed under the table, none longer than ``width``: the notes on skipped inputs (the first
    NOTES_SHOWN), then the late and unreadable hand-ins; missing ones are counted (the table shows them as "-")."""
    lines = missing_report(cohort)
    missing = sum(line.startswith("missing: ") for line in lines)
    said = cohort.notes[:NOTES_SHOWN] + [line for line in lines if not line.startswith("missing: ")]
    shown = [terminal_table.clip(line, width) for line in said]
    if len(cohort.notes) > NOTES_SHOWN:
        shown.insert(NOTES_SHOWN, f"... and {len(cohort.notes) - NOTES_SHOWN} note(s) more")
    if missing:
        shown.append(f"{missing} hand-in(s) not handed in (- in the table)")
    if shown != said or len(cohort.notes) > NOTES_SHOWN:
        shown.append("cohort_report.html (Hand-ins that need a look) and checks.csv (problems) give every note in full")
    return shown
