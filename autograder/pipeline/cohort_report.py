"""What a graded cohort looks like: the summary table, checks.csv and the cohort report page.

Everything here works on plain data gathered by autograder/pipeline/batch.py (the gradebook's
scores, what graders set by hand, and the graded records), and produces text that depends
only on that data: no clock, no machine names, so a regrade of the same cohort writes the
same files. The report's date is data too: the batch passes the day its content last changed.
"""

import csv
import dataclasses
import functools
import io
import re
import statistics
from dataclasses import dataclass, field
from urllib.parse import quote

import jinja2

from autograder.pipeline import charts, item_analysis, timestamps


@dataclass
class Lesson:
    assignment: str
    notebook: str
    max_score: float


@dataclass
class Entry:
    """One learner's hand-in of one lesson."""

    status: str  # "graded", "unreadable" (0 with a message) or "missing"
    score: float = 0.0
    late_seconds: float = 0.0
    penalty: float = 0.0  # points the late policy took (score is after it)
    problem: str = ""  # why an unreadable notebook got 0
    checks: list = field(default_factory=list)  # the record's per-check results
    answers: dict = field(default_factory=dict)  # answer grade id -> passed
    results: dict = field(default_factory=dict)  # results.json in Gradescope's schema
    seconds: float = 0.0  # how long grading this hand-in took; 0 when not known
    manual: dict = field(
        default_factory=dict
    )  # what graders set by hand: {"grades": {cell: {...}}, "comments": {cell: text}}
    untouched: bool = False  # the release notebook handed back with none of its code changed


@dataclass
class Cohort:
    lessons: list  # [Lesson], in course order
    checks: list  # [(check id, function, points)], every hidden check, in checks.csv's column order
    answers: list  # answer grade ids, in lesson order
    learners: dict = field(default_factory=dict)  # student id -> {assignment: Entry}
    notes: list = field(default_factory=list)  # inputs that were skipped, and why
    regraded: list = field(default_factory=list)  # "student/assignment" hand-ins graded in this run
    refreshed: list = field(default_factory=list)  # hand-ins whose feedback was written again for a grader's change
    rules: dict = field(default_factory=dict)  # check id -> the sentence of the instructions it enforces

    @property
    def max_total(self):
        return sum(lesson.max_score for lesson in self.lessons)

    def total(self, student):
        return sum(self.learners[student].get(lesson.assignment, Entry("missing")).score for lesson in self.lessons)

    def entry(self, student, assignment):
        return self.learners[student].get(assignment, Entry("missing"))


def _g(number):
    return f"{number:g}"


def remarks(cohort, student):
    """Short notes on a learner's hand-ins: late, missing or unreadable lessons."""
    said = []
    for lesson in cohort.lessons:
        entry = cohort.entry(student, lesson.assignment)
        if entry.status == "missing":
            said.append(f"{lesson.assignment} missing")
        elif entry.status == "unreadable":
            said.append(f"{lesson.assignment} unreadable")
        elif entry.untouched:
            said.append(f"{lesson.assignment} untouched (the release notebook, unchanged)")
        if entry.manual.get("grades"):
            said.append(f"{lesson.assignment} graded by hand")
        if entry.late_seconds > 0:
            cost = f", -{entry.penalty:g} points" if entry.penalty else ""
            said.append(f"{lesson.assignment} late by {timestamps.duration(entry.late_seconds)}{cost}")
    return "; ".join(said)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may take for the start of a formula


def csv_cell(value):
    """A CSV cell a spreadsheet shows as text: one that could start a formula gets a leading single quote."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_text(rows):
    """Rows as CSV text: every field quoted, every cell through csv_cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return out.getvalue()


def problems_of(cohort, student):
    """What went wrong with a learner's hand-ins: the problems of their lessons, then the notes about their files."""
    said = [cohort.entry(student, lesson.assignment).problem for lesson in cohort.lessons]
    said += [note for note in cohort.notes if note.startswith(f"{student}/")]
    return [text for text in said if text]


def by_hand(cohort, student):
    """What graders set by hand on a learner's hand-ins, one text per grade or comment, in lesson order."""
    said = []
    for lesson in cohort.lessons:
        manual = cohort.entry(student, lesson.assignment).manual
        for cell, grade in manual.get("grades", {}).items():
            given = f"{grade['score']:g}" if grade["score"] is not None else "as autograded"
            extra = f" {grade['extra_credit']:+g} extra credit" if grade["extra_credit"] else ""
            auto = f" (hidden checks: {grade['auto_score']:g})" if grade["auto_score"] is not None else ""
            said.append(f"{lesson.assignment}/{cell}: {given}{extra}{auto}")
        said += [f"{lesson.assignment}/{cell}: comment: {text}" for cell, text in manual.get("comments", {}).items()]
    return said


def checks_csv(cohort):
    """One row per learner, one column per hidden check id and per answer cell: the points earned.

    A cell is empty when the learner handed in no notebook graded by that check. The column
    graded_by_hand lists the grades and comments a grader set (the checks' columns stay
    what the hidden checks gave); the last column, problems, says what went wrong with the
    learner's hand-ins (unreadable, not handed in as the lesson notebook, skipped files).
    """
    return Report.of(cohort).checks_csv()


# ---------------------------------------------------------------- the report page


def distribution(cohort, bins=10):
    """How many learners' totals fall in each tenth of the maximum: [(low %, high %, count)]."""
    counts = [0] * bins
    for student in cohort.learners:
        share = cohort.total(student) / cohort.max_total if cohort.max_total else 0.0
        counts[min(bins - 1, int(share * bins))] += 1
    return [(100 * i // bins, 100 * (i + 1) // bins, n) for i, n in enumerate(counts)]


def feedback_link(student, lesson):
    """The address of a hand-in's feedback page, relative to the report."""
    page = lesson.notebook.rsplit(".", 1)[0] + ".html"
    return "/".join(quote(part) for part in ("feedback", student, lesson.assignment, page))


def _seconds(value):
    return f"{value:.1f} s" if value < 60 else f"{int(value // 60)} min {value % 60:02.0f} s"


def learner_rows(cohort):
    """The "every learner" table: each lesson's score linked to its feedback page, the total, grading time."""
    rows = []
    for student in sorted(cohort.learners):
        cells, seconds = [], 0.0
        for lesson in cohort.lessons:
            entry = cohort.entry(student, lesson.assignment)
            seconds += entry.seconds
            if entry.status == "missing":
                cells.append(None)
            else:
                cells.append(
                    {"href": feedback_link(student, lesson), "score": f"{_g(entry.score)}/{_g(lesson.max_score)}"}
                )
        rows.append(
            {
                "student": student,
                "cells": cells,
                "total": f"{_g(cohort.total(student))}/{_g(cohort.max_total)}",
                "seconds": _seconds(seconds) if seconds > 0 else "",
            }
        )
    return rows


class Report:
    """checks.csv and the report page, built one learner at a time: ``add`` each learner in student order.

    A learner's records (their checks, answers and results) are read as they are added
    and only their row is kept: the learner's scores and remarks (an Entry without its
    records, in ``cohort``), their checks.csv line, and the tallies of the report (pass
    counts, who showed which misconception, one outcome per item of the item analysis).
    So the batch (autograder/pipeline/outputs.py) never holds the records of the whole
    cohort; ``Report.of`` builds the same from a Cohort that holds them.
    """

    def __init__(self, lessons, checks, answers, notes=(), rules=None):
        self.cohort = Cohort(list(lessons), list(checks), list(answers), {}, list(notes), rules=dict(rules or {}))
        self._checks = {check_id: [0, 0] for check_id, _f, _p in self.cohort.checks}  # id: [passed, tried]
        self._who = {}  # (misconception, function): the learners who showed it, in student order
        self._items = item_analysis.Items(self.cohort.checks, self.cohort.answers)
        self._csv = io.StringIO()
        self._csv.write(
            csv_text(
                [
                    ["student_id"]
                    + [c for c, _f, _p in self.cohort.checks]
                    + self.cohort.answers
                    + ["graded_by_hand", "problems"]
                ]
            )
        )

    @classmethod
    def of(cls, cohort):
        """The Report of a Cohort whose entries hold their records."""
        report = cls(cohort.lessons, cohort.checks, cohort.answers, cohort.notes, cohort.rules)
        for student in sorted(cohort.learners):
            report.add(student, cohort.learners[student])
        return report

    def add(self, student, entries):
        """One learner's {assignment: Entry}, records included; keeps their row, never the records."""
        cohort = self.cohort
        if cohort.learners and student <= next(reversed(cohort.learners)):
            raise ValueError(
                f"learners must come in student order: {student!r} after {next(reversed(cohort.learners))!r}"
            )
        cohort.learners[student] = {
            assignment: dataclasses.replace(entry, checks=[], answers={}, results={})
            for assignment, entry in entries.items()
        }
        earned, answered, named = {}, {}, set()
        for entry in entries.values():
            earned.update({c["id"]: c["score"] for c in entry.checks})
            answered.update(entry.answers)
            named.update((c["misconception"], c["function"]) for c in entry.checks if c["misconception"])
            if entry.status == "missing":
                continue
            for c in entry.checks:
                if c["id"] in self._checks:
                    self._checks[c["id"]][0] += c["passed"]
                    self._checks[c["id"]][1] += 1
        for key in named:
            self._who.setdefault(key, []).append(student)
        self._items.add(student, entries, cohort.total(student))
        row = [student] + [_g(earned[c]) if c in earned else "" for c, _f, _p in cohort.checks]
        row += ["" if a not in answered else ("1" if answered[a] else "0") for a in cohort.answers]
        self._csv.write(
            csv_text([row + [" | ".join(by_hand(cohort, student)), " | ".join(problems_of(cohort, student))]])
        )

    def checks_csv(self):
        """checks.csv's text: the header and every learner's row added so far."""
        return self._csv.getvalue()

    def check_rates(self):
        """[(check id, function, points, passed, tried)]: a check is tried by every notebook it grades."""
        return [(c, function, points, *self._checks[c]) for c, function, points in self.cohort.checks]

    def misconceptions(self):
        """[(misconception, function, learners)], most learners first."""
        ranked = sorted(self._who.items(), key=lambda item: (-len(item[1]), item[0]))
        return [(text, function, who) for (text, function), who in ranked]

    def lesson_means(self):
        """[{lesson, handed_in, mean, max}]: each lesson's mean score over the learners who handed it in."""
        cohort, rows = self.cohort, []
        for lesson in cohort.lessons:
            scores = [
                cohort.entry(s, lesson.assignment).score
                for s in sorted(cohort.learners)
                if cohort.entry(s, lesson.assignment).status != "missing"
            ]
            rows.append(
                {
                    "lesson": lesson.assignment,
                    "handed_in": len(scores),
                    "max": _g(lesson.max_score),
                    "mean": f"{statistics.mean(scores):.1f}" if scores else "–",
                }
            )
        return rows

    def page_data(self, title="Cohort report", course="", date=""):
        """Everything the report template shows, as plain values (every string still raw: the template escapes).

        ``course`` names the course and ``date`` is the day the report's content last changed, both given by the batch.
        """
        cohort = self.cohort
        totals = [cohort.total(s) for s in sorted(cohort.learners)]
        summary = None
        if totals:
            summary = {
                "learners": len(totals),
                "max": _g(cohort.max_total),
                "mean": f"{statistics.mean(totals):.1f}",
                "median": _g(statistics.median(totals)),
                "lowest": _g(min(totals)),
                "highest": _g(max(totals)),
            }
        rates = self.check_rates()
        hardest = sorted(
            (r for r in rates if r[4]), key=lambda r: (r[3] / r[4], r[0])
        )  # a check nobody tried is not hard
        untried = [r[0] for r in rates if not r[4]]
        items = self._items.rows()
        flagged = {
            flag: [row for row in items if row["flag"] == flag] for flag in ("all_pass", "all_fail", "low", "negative")
        }
        learners = learner_rows(cohort)
        return {
            "title": title,
            "course": course,
            "date": date,
            "summary": summary,
            "lesson_means": self.lesson_means(),
            "untried": untried,
            "by_hand": [
                {"student": s, "said": by_hand(cohort, s)} for s in sorted(cohort.learners) if by_hand(cohort, s)
            ],
            "histogram": charts.histogram(distribution(cohort)),
            "pass_rates": charts.pass_rates(
                [(c, passed, tried, cohort.rules.get(c, "")) for c, _f, _p, passed, tried in hardest]
            ),
            "items": items,
            "flagged": flagged,
            "min_learners": item_analysis.MIN_LEARNERS,
            "low_index": item_analysis.LOW_INDEX,
            "index_sentence": item_analysis.INDEX_SENTENCE,
            "misconceptions": self.misconceptions(),
            "flagged_learners": [
                {"student": s, "remarks": remarks(cohort, s), "problems": problems_of(cohort, s)}
                for s in sorted(cohort.learners)
                if remarks(cohort, s) or problems_of(cohort, s)
            ],
            "unattributed": [n for n in cohort.notes if not any(n.startswith(f"{s}/") for s in cohort.learners)],
            "lessons": [lesson.assignment for lesson in cohort.lessons],
            "learners": learners,
            "timed": any(row["seconds"] for row in learners),
        }

    def html_page(self, title="Cohort report", course="", date=""):
        """The cohort report page (templates/cohort_report.html.j2)."""
        return environment().get_template("cohort_report.html.j2").render(self.page_data(title, course, date))


@functools.lru_cache(maxsize=1)
def environment():
    """The Jinja2 environment of the kit's own pages: this package's templates/, every value escaped."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("autograder.pipeline", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["g"] = _g
    env.filters["breakable"] = breakable
    return env


def breakable(name):
    """A name (escaped) that a narrow column may break after each "_" or "-", and nowhere inside a word."""
    from markupsafe import Markup, escape

    parts = re.split(r"(?<=[_-])", str(name))
    return Markup("<wbr>").join(escape(part) for part in parts)


def html_page(cohort, title="Cohort report", course="", date=""):
    """The cohort report page (templates/cohort_report.html.j2)."""
    return Report.of(cohort).html_page(title, course, date)
