"""Step 3 of the batch: every submitted notebook graded with the hidden checks, into the cache, before nbgrader runs."""

import collections
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from autograder.course import active
from autograder.course.lessons import function_of
from autograder.files import sha, write_atomic
from autograder.grading import cellgrades
from autograder.nbgrader import hidden_checks
from autograder.nbgrader.course_folder import BatchError
from autograder.pipeline.pool import AHEAD, WORKERS, die_with, streamed
from autograder.pipeline.progress import Progress

SECONDS = "seconds"  # OUT/cache/seconds/<record key>: how long the hidden checks took on that code


def grade_job(job):
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


def checks_graded(cells, assignments):
    """The course's checks of the functions whose grade cells ``assignments`` hold (``cells``: Course.grade_cells()):
    all that grading their hand-ins can run, and so all that is worth working out before the workers fork."""
    functions = {function_of(grade_id) for assignment in assignments for grade_id in cells[assignment][0]}
    return [check for check in active.part("checks").all_checks() if check.function in functions]


def pregrade(course, workers=WORKERS):
    """Grade every submitted notebook into the cache; return {relative path: record key or problem}."""
    grading = Grading(course, workers)
    grading.finish()
    return grading.keys


class Grading:
    """Every submitted notebook graded into the cache, by ``workers`` worker processes, as the batch goes on.

    ``keys`` ({relative path: record key or problem}) are known at once: notebooks are read one
    at a time to find their record key, and only the paths of the ones to grade are kept. The
    grading starts at the first wait() or finish(): each worker reads its notebook again, and
    each record is saved as it comes back (with the seconds its grading took, written first), so
    neither the notebooks nor the records of the cohort are ever held together. wait(relatives)
    returns once their records are saved, while the workers grade the rest: the batch autogrades
    a hand-in while its workers grade the next.
    """

    def __init__(self, course, workers=WORKERS):
        cells = course.grade_cells()
        problems = course.problems()
        settings = hidden_checks.course_settings(course.config())  # c.HiddenChecks.limits and .shrink
        try:
            cellgrades.limits_of(settings)
        except ValueError as err:
            raise BatchError(f"{course.root / 'nbgrader_config.py'}: {err}") from None
        keys, todo = {}, {}
        for (_student, assignment), relatives in sorted(course.submissions().items()):
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
        self.keys, self.pending = keys, set(todo)
        self._saved = _graded(course, workers, todo, cells, settings)

    def wait(self, relatives):
        """Return once the records of ``relatives`` (paths under submitted/) are saved, or their grading failed."""
        wanted = {self.keys.get(relative) for relative in relatives} & self.pending
        for key in self._saved if wanted else ():
            self.pending.discard(key)
            wanted.discard(key)
            if not wanted:
                break

    def finish(self):
        """Return once every record is saved (or its grading failed)."""
        for key in self._saved:
            self.pending.discard(key)


def _graded(course, workers, todo, cells, settings):
    """Grade the notebooks of ``todo`` ({record key: (relative path, assignment)}); yield each key once it is done."""
    if not todo:
        return
    # Longest first (the notebooks with the most hidden checks), so no worker is left with a long one at the end.
    checks_per_function = collections.Counter(check.function for check in active.part("checks").all_checks())

    def longest_first(item):
        points = cells[item[1][1]][0]
        return -sum(checks_per_function[function_of(grade_id)] for grade_id in points), -len(points)

    ordered = sorted(todo.items(), key=longest_first)
    jobs = ((key, str(course.root), relative, settings, *cells[assignment]) for key, (relative, assignment) in ordered)
    bar = Progress("hidden checks", len(ordered), course.stream)
    from autograder.grading.runner import warm  # grading's imports only when there is something to grade

    # once, here: the workers forked below share the checks' inputs and the reference's answers
    warm(checks_graded(cells, {assignment for _relative, assignment in todo.values()}))
    with ProcessPoolExecutor(max_workers=max(1, workers), initializer=die_with, initargs=(os.getpid(),)) as pool:
        for key, record, seconds, error in streamed(pool, grade_job, jobs, AHEAD * max(1, workers)):
            if record is not None:
                write_atomic(course.cache / SECONDS / key, f"{seconds}\n")
                cellgrades.save_record(course.cache, key, record)
            else:
                bar.write(f"grading failed for one notebook ({error}); nbgrader will grade it again")
            bar.advance()
            yield key
    bar.close()
