"""Item analysis of a graded cohort: which checks and answer cells tell learners apart.

An *item* is one hidden check or one answer cell. Each learner who handed in a
notebook graded by it either passed or failed it (an unreadable notebook fails
every item it would have been graded on). For every item this module reports how
many passed, and its discrimination index: the point-biserial correlation between
passing the item (1 or 0) and the learner's total score for the course. An item
that every learner passes, or every learner fails, measures nothing in this cohort;
one whose index is low (or negative) passes strong and weak learners alike (or
favours the weak), and is worth a second look.

Pure functions of plain data: cohort_report.Cohort in, dicts out.
"""

import math
from dataclasses import dataclass, field

MIN_LEARNERS = 10  # fewer learners than this: no index, a note instead
LOW_INDEX = 0.2  # an index below this discriminates poorly (a common rule of thumb)

INDEX_SENTENCE = (
    "The discrimination index is the point-biserial correlation between passing an item and the learner's "
    "total score: near 1 when the learners who pass it are the ones who score well overall, near 0 when "
    "passing it says nothing about the rest of the score, and negative when weaker learners pass it more often."
)


@dataclass
class Item:
    kind: str  # "check" or "answer"
    id: str  # check id or answer grade id
    function: str = ""  # a check's function; "" for an answer cell
    points: float = 0.0  # a check's points; an answer cell's are its own
    outcomes: dict = field(default_factory=dict)  # student id -> passed (bool), learners who were graded on it


def items_of(cohort):
    """[Item] for every hidden check, then every answer cell, with each graded learner's outcome."""
    found = [Item("check", check_id, function, points) for check_id, function, points in cohort.checks]
    found += [Item("answer", grade_id) for grade_id in cohort.answers]
    by_id = {(item.kind, item.id): item for item in found}
    for student in sorted(cohort.learners):
        for entry in cohort.learners[student].values():
            if entry.status == "missing":
                continue
            for check in entry.checks:
                item = by_id.get(("check", check["id"]))
                if item is not None:
                    item.outcomes[student] = bool(check["passed"])
            for grade_id, passed in entry.answers.items():
                item = by_id.get(("answer", grade_id))
                if item is not None:
                    item.outcomes[student] = bool(passed)
    return found


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
    rows = []
    for item in items_of(cohort):
        students = sorted(item.outcomes)
        outcomes = [item.outcomes[s] for s in students]
        totals = [cohort.total(s) for s in students]
        passed, tried = sum(outcomes), len(outcomes)
        index = point_biserial(outcomes, totals) if tried >= min_learners else None
        flag, says = verdict(passed, tried, index, min_learners)
        rows.append({"kind": item.kind, "id": item.id, "function": item.function, "points": item.points,
                     "passed": passed, "tried": tried, "index": index, "flag": flag, "says": says})
    return rows
