"""Grade one notebook's code for its nbgrader grade cells, as plain JSON cached by a hash.

A notebook's grade cells say what to grade, as the course's table of grade cells
(autograder/course/lessons.py) says: a function cell runs every hidden check on that
function, an answer cell is judged by its judge (autograder/grading/answers.py).
The outcome, a *record*, holds only plain values: each grade cell's score and the
teaching messages to show under it, the per-check results and a results.json in
Gradescope's schema. A record depends on nothing but the learner's code, the grade
cells and their points, and the grading code itself, so it is stored under a hash
of exactly those: the same code is graded once, and a change to any of them
(a resubmission, a new check) misses the cache and is graded afresh.
"""

import dataclasses
import hashlib
import json
import time
from pathlib import Path

from autograder.course import active, cells as notebook
from autograder.course.lessons import function_of
from autograder.files import write_atomic
from autograder.grading import answers, feedback, graded_tests, provenance, report, runner
from autograder.grading.provenance import fingerprint
from autograder.grading.submission import Submission, SubmissionError, from_notebook_json
from autograder.sandbox.limits import Limits

VERSION = 3  # bump when the record's layout changes (2: a function cell's pictures; 3: each test's parts)


def chunks_of(nb, filename, test_ids):
    """The learner's code chunks of a notebook (a JSON dict) and notes about it.

    Cells are told apart by grade id, never by their nbgrader flags: a cell whose id is
    one of the course's test cells (``test_ids``) is left out, every other code cell is
    the learner's, labelled by its position as in a handed-in notebook file.
    """

    def is_test(cell):
        return notebook.nbgrader_meta(cell).get("grade_id") in test_ids

    try:
        submission = from_notebook_json(nb, filename, is_test)
    except SubmissionError as err:
        return [], [str(err)]
    return submission.chunks, submission.notes


def record_key(chunks, points, notes=(), settings=None):
    """The cache key of a record: the code, the grade cells and points, the grading code and its settings, and the
    environment that runs it (provenance.environment)."""
    payload = {
        "settings": settings or {},
        "version": VERSION,
        "grading": fingerprint(),
        "environment": provenance.environment(),  # a new Python, Hypothesis or isolation mode grades afresh
        "points": sorted(points.items()),
        "chunks": [[chunk.label, chunk.code] for chunk in chunks],
        "notes": list(notes),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


MAX_PICTURES = 2  # pictures of failed checks' graphs under one grade cell


def pictures(failed):
    """SVG pictures of the first failed checks that have one (the course's picture part draws them)."""
    made = []
    for result in failed:
        svg = active.part("picture").of_failure(result.failure, result.check.id)
        if svg:
            made.append(svg)
        if len(made) == MAX_PICTURES:
            break
    return made


def _function_cell(results, most, problems):
    earned = sum(r.score for r in results)
    possible = sum(r.points for r in results)  # a check this machine could not measure counts for nothing
    score = round(most * earned / possible, 4) if possible else 0.0
    failed = [r for r in results if not r.passed]
    lines = [f"hidden checks: {earned:g}/{possible:g} points, {len(results) - len(failed)} of {len(results)} passed"]
    lines += [
        f"  {'passed' if r.passed else 'FAILED' if r.graded else 'not graded'}  {r.check.id} ({r.score:g}/{r.points:g})"
        for r in results
    ]
    for misconception, ids in feedback.misconceptions(results):
        lines += ["", f"likely misconception: {misconception}", f"  it cost: {', '.join(ids)}"]
    if failed and problems:
        lines += ["", "problems while running your notebook's code:"] + [f"  {p}" for p in problems]
    said = feedback.messages(results)
    errors = [{"name": r.check.id, "summary": r.failure.summary, "message": said[r.check.id]} for r in failed]
    return {"score": score, "max": most, "summary": "\n".join(lines), "errors": errors, "pictures": pictures(failed)}


def _answer_cell(grade_id, message, most):
    if not message:
        return {"score": most, "max": most, "summary": "correct", "errors": []}
    error = {"name": grade_id, "summary": message, "message": f"{grade_id}: 0/{most:g}\n{message}"}
    return {"score": 0.0, "max": most, "summary": f"{grade_id}: not yet right", "errors": [error]}


def problem_cell(message, most):
    """A grade cell's outcome when the notebook itself could not be graded."""
    return {
        "score": 0.0,
        "max": most,
        "summary": "",
        "errors": [{"name": "notebook", "summary": message, "message": message}],
    }


def _answer_test(grade_id, cell):
    output = cell["errors"][0]["message"] if cell["errors"] else f"{grade_id}: correct"
    return graded_tests.answer_test(grade_id, cell["score"], cell["max"], not cell["errors"], output)


def limits_of(settings):
    """The sandbox's Limits with the course config's overrides (c.HiddenChecks.limits) applied."""
    overrides = dict((settings or {}).get("limits", {}))
    unknown = sorted(set(overrides) - {f.name for f in dataclasses.fields(Limits)})
    if unknown:
        fields = ", ".join(f.name for f in dataclasses.fields(Limits))
        raise ValueError(
            f"c.HiddenChecks.limits names {', '.join(unknown)}, which are not limits; the limits are {fields}"
        )
    return Limits(**overrides)


def grade_record(chunks, points, notes=(), origin="notebook", settings=None):
    """Grade the code for the grade cells in ``points`` ({grade_id: points}); return the record.

    ``settings``: the HiddenChecks settings of the course config ({"limits": {...}, "shrink": bool}).
    """
    all_checks = active.part("checks").all_checks
    started = time.perf_counter()
    functions = {function_of(g) for g in points} - {""}
    checks = [c for c in all_checks() if c.function in functions]
    # One sandbox session per notebook: the answer cells' variables, then the hidden checks.
    settings = settings or {}
    graded = runner.grade(
        Submission(Path(origin), list(chunks), list(notes)),
        checks,
        limits_of(settings),
        first=lambda sandbox: answers.judge_in(sandbox, list(points)),
        shrink=settings.get("shrink", True),
    )
    problems = feedback.load_problems(graded)
    shown = feedback.load_problems(graded, unanswered=False)  # under a function cell: the answer cells say the rest
    verdicts = graded.also
    cells = {}
    for grade_id, most in points.items():
        function = function_of(grade_id)
        if function:
            cells[grade_id] = _function_cell([r for r in graded.results if r.check.function == function], most, shown)
        elif grade_id in verdicts:
            cells[grade_id] = _answer_cell(grade_id, verdicts[grade_id], most)
        else:
            cells[grade_id] = problem_cell(f"the course defines no check for grade cell {grade_id!r}", most)
    results = report.results_json(graded)
    answered = [_answer_test(g, cells[g]) for g in points if g in verdicts]
    results["tests"] += answered
    results["score"] = round(sum(t["score"] for t in results["tests"]), 4)
    results["max_score"] = round(sum(t["max_score"] for t in results["tests"]), 4)
    results["execution_time"] = round(time.perf_counter() - started, 3)
    lines = results["output"].splitlines()  # the overview's first line counts checks only: count everything
    lines[0] = f"{origin}: {results['score']:g}/{results['max_score']:g}"
    if answered:
        end = next((i for i, line in enumerate(lines[1:], 1) if not line.startswith("  ")), len(lines))
        right = sum(t["score"] for t in answered)
        lines.insert(end, f"  answer cells: {right:g}/{sum(t['max_score'] for t in answered):g}")
    results["output"] = "\n".join(lines)
    return {
        "version": VERSION,
        "origin": origin,
        "cells": cells,
        "checks": [
            {
                "id": r.check.id,
                "function": r.check.function,
                "points": r.check.points,
                "score": r.score,
                "passed": r.passed,
                "misconception": r.misconception,
            }
            for r in graded.results
        ],
        "problems": problems,
        "results": results,
    }


def problem_record(message, points, origin="notebook"):
    """The record of a notebook that could not be read: every check and grade cell 0, with the message.

    Its results name every check and answer cell, as a graded record does, each failed with the message.
    """
    all_checks = active.part("checks").all_checks
    functions = {function_of(g) for g in points} - {""}
    checks = [c for c in all_checks() if c.function in functions]

    tests = [graded_tests.check_test(c, 0.0, c.points, False, message) for c in checks]
    tests += [
        graded_tests.answer_test(g, 0.0, most, False, message) for g, most in points.items() if not function_of(g)
    ]
    return {
        "version": VERSION,
        "origin": origin,
        "cells": {g: problem_cell(message, most) for g, most in points.items()},
        "checks": [
            {"id": c.id, "function": c.function, "points": c.points, "score": 0.0, "passed": False, "misconception": ""}
            for c in checks
        ],
        "problems": [message],
        "results": {
            "score": 0.0,
            "max_score": round(sum(points.values()), 4),
            "execution_time": 0.0,
            "output": f"{origin}: 0/{sum(points.values()):g}\n{message}",
            "tests": tests,
        },
    }


# ---------------------------------------------------------------- the cache


def record_path(cache_dir, key):
    return Path(cache_dir) / "records" / f"{key}.json"


def load_record(cache_dir, key):
    """The cached record for key, or None."""
    path = record_path(cache_dir, key)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("version") == VERSION else None


def save_record(cache_dir, key, record):
    # whole or not at all, even with two graders writing
    write_atomic(record_path(cache_dir, key), json.dumps(record, indent=1, sort_keys=True))
