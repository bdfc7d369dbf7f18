"""Item analysis of a graded cohort: which checks and answer cells tell learners apart.

An *item* is one hidden check or one answer cell. Each learner who handed in a
notebook graded by it either passed or failed it (an unreadable notebook fails
every item it would have been graded on). For every item this module reports how
many passed, and its discrimination index: the point-biserial correlation between
passing the item (1 or 0) and the learner's total score for the course. An item
that every learner passes, or every learner fails, measures nothing in this cohort;
one whose index is low (or negative) passes strong and weak learners alike (or
favours the weak), and is worth a second look.

Plain data in (cohort_report.Cohort, or one learner at a time through Items), dicts out.
"""

import math

MIN_LEARNERS = 10  # fewer learners than this: no index, a note instead
LOW_INDEX = 0.2  # an index below this discriminates poorly (a common rule of thumb)

INDEX_SENTENCE = (
    "The discrimination index is the point-biserial correlation between passing an item and the learner's "
    "total score: near 1 when the learners who pass it are the ones who score well overall, near 0 when "
    "passing it says nothing about the rest of the score, and negative when weaker learners pass it more often."
)


class Items:
    """Every item's outcomes, taken one learner at a time, in student order: ``add`` each, then ``rows``.

    A learner leaves one byte and a reference to their total per item they were graded on, never their
    records, so a cohort's records need not be held together (autograder/pipeline/outputs.py
    streams them). Learners must come in student order: that is the order the index sums in.
    """

    def __init__(self, checks, answers):
        self.items = [("check", check_id, function, points) for check_id, function, points in checks]
        self.items += [("answer", grade_id, "", 0.0) for grade_id in answers]
        self._outcomes = {}  # (kind, id): bytearray, passed (1) or failed (0), one per learner graded on it
        self._totals = {}  # (kind, id): those learners' totals (one float each), in the same order
        for kind, item_id, _function, _points in self.items:
            self._outcomes[(kind, item_id)] = bytearray()
            self._totals[(kind, item_id)] = []
        self._last = None

    def add(self, student, entries, total):
        """One learner: their {assignment: Entry} (with checks and answers) and their total score."""
        if self._last is not None and student <= self._last:
            raise ValueError(f"learners must come in student order: {student!r} after {self._last!r}")
        self._last = student
        passed = {}  # (kind, id): this learner's outcome; a later lesson's outcome wins, as one per learner
        for entry in entries.values():
            if entry.status == "missing":
                continue
            for check in entry.checks:
                if ("check", check["id"]) in self._outcomes:
                    passed[("check", check["id"])] = bool(check["passed"])
            for grade_id, ok in entry.answers.items():
                if ("answer", grade_id) in self._outcomes:
                    passed[("answer", grade_id)] = bool(ok)
        for key, ok in passed.items():
            self._outcomes[key].append(ok)
            self._totals[key].append(total)

    def rows(self, min_learners=MIN_LEARNERS):
        """One row per item, in checks.csv's order: kind, id, function, points, passed, tried, index, flag, says."""
        rows = []
        for kind, item_id, function, points in self.items:
            outcomes = [bool(ok) for ok in self._outcomes[(kind, item_id)]]
            totals = list(self._totals[(kind, item_id)])
            passed, tried = sum(outcomes), len(outcomes)
            index = point_biserial(outcomes, totals) if tried >= min_learners else None
            flag, says = verdict(passed, tried, index, min_learners)
            rows.append(
                {
                    "kind": kind,
                    "id": item_id,
                    "function": function,
                    "points": points,
                    "passed": passed,
                    "tried": tried,
                    "index": index,
                    "flag": flag,
                    "says": says,
                }
            )
        return rows


def point_biserial(outcomes, totals):
    """The correlation between 0/1 ``outcomes`` and ``totals`` (two equal-length lists); None when undefined.

    r = (M1 - M0) / s * sqrt(p * q): M1 and M0 the mean total of those who passed and of those who
    failed, s the standard deviation of every total, p the share who passed and q = 1 - p.
    """
    n = len(totals)
    passed = [t for t, ok in zip(totals, outcomes) if ok]
    failed = [t for t, ok in zip(totals, outcomes) if not ok]
    if not passed or not failed:
        return None
    mean = sum(totals) / n
    spread = math.sqrt(sum((t - mean) ** 2 for t in totals) / n)
    if spread == 0:
        return None
    p = len(passed) / n
    return (sum(passed) / len(passed) - sum(failed) / len(failed)) / spread * math.sqrt(p * (1 - p))


def verdict(passed, tried, index, min_learners=MIN_LEARNERS):
    """(flag, sentence): flag is "all_pass", "all_fail", "low", "negative", "few", "none" or ""."""
    if tried == 0:
        return "none", "no graded hand-in"
    if passed == tried:
        return "all_pass", "every learner passes it"
    if passed == 0:
        return "all_fail", "every learner fails it"
    if tried < min_learners:
        return "few", f"too few learners for an index ({tried}, fewer than {min_learners})"
    if index is None:
        return "few", "every learner has the same total: no index"
    if index < 0:
        return "negative", "weaker learners pass it more often than stronger ones"
    if index < LOW_INDEX:
        return "low", f"does not discriminate (index below {LOW_INDEX:g})"
    return "", ""


def analyse(cohort, min_learners=MIN_LEARNERS):
    """One row per item, in checks.csv's order: kind, id, function, points, passed, tried, index, flag, says."""
    items = Items(cohort.checks, cohort.answers)
    for student in sorted(cohort.learners):
        items.add(student, cohort.learners[student], cohort.total(student))
    return items.rows(min_learners)
