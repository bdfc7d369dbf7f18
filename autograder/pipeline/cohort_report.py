"""What a graded cohort looks like: the summary table, checks.csv and the cohort report page.

Everything here works on plain data gathered by autograder/pipeline/batch.py (the gradebook's
scores and the graded records), and produces text that depends only on that data:
no clock, no machine names, so a regrade of the same cohort writes the same files.
"""

import csv
import html
import io
import statistics
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import quote


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


@dataclass
class Cohort:
    lessons: list  # [Lesson], in course order
    checks: list  # [(check id, function, points)], every hidden check, in checks.csv's column order
    answers: list  # answer grade ids, in lesson order
    learners: dict = field(default_factory=dict)  # student id -> {assignment: Entry}
    notes: list = field(default_factory=list)  # inputs that were skipped, and why
    regraded: list = field(default_factory=list)  # "student/assignment" hand-ins graded in this run
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
        if entry.late_seconds > 0:
            cost = f", -{entry.penalty:g} points" if entry.penalty else ""
            said.append(f"{lesson.assignment} late by {entry.late_seconds / 3600:.1f} h{cost}")
    return "; ".join(said)


def summary_table(cohort):
    """The plain-text table printed at the end of a batch."""
    headers = ["learner"] + [lesson.assignment for lesson in cohort.lessons] + ["total", "notes"]
    rows = []
    for student in sorted(cohort.learners):
        cells = [student]
        for lesson in cohort.lessons:
            entry = cohort.entry(student, lesson.assignment)
            cells.append("-" if entry.status == "missing" else f"{_g(entry.score)}/{_g(lesson.max_score)}")
        cells += [f"{_g(cohort.total(student))}/{_g(cohort.max_total)}", remarks(cohort, student)]
        rows.append(cells)
    widths = [max(len(str(r[i])) for r in [headers] + rows) for i in range(len(headers))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in [headers] + rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


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


def checks_csv(cohort):
    """One row per learner, one column per hidden check id and per answer cell: the points earned.

    A cell is empty when the learner handed in no notebook graded by that check. The last
    column, problems, says what went wrong with the learner's hand-ins (unreadable, not
    handed in as the lesson notebook, skipped files).
    """
    rows = [["student_id"] + [check_id for check_id, _f, _p in cohort.checks] + list(cohort.answers) + ["problems"]]
    for student in sorted(cohort.learners):
        earned, answered = {}, {}
        for entry in cohort.learners[student].values():
            earned.update({c["id"]: c["score"] for c in entry.checks})
            answered.update(entry.answers)
        row = [student] + [_g(earned[c]) if c in earned else "" for c, _f, _p in cohort.checks]
        row += ["" if a not in answered else ("1" if answered[a] else "0") for a in cohort.answers]
        rows.append(row + [" | ".join(problems_of(cohort, student))])
    return csv_text(rows)


# ---------------------------------------------------------------- the report page


def check_rates(cohort):
    """[(check id, function, points, passed, tried)]: a check is tried by every notebook it grades."""
    rates = []
    for check_id, function, points in cohort.checks:
        results = [c["passed"] for e in _entries(cohort) for c in e.checks if c["id"] == check_id]
        rates.append((check_id, function, points, sum(results), len(results)))
    return rates


def answer_rates(cohort):
    rates = []
    for grade_id in cohort.answers:
        results = [e.answers[grade_id] for e in _entries(cohort) if grade_id in e.answers]
        rates.append((grade_id, sum(results), len(results)))
    return rates


def misconceptions(cohort):
    """[(misconception, function, learners)], most learners first."""
    seen = Counter()
    who = {}
    for student in sorted(cohort.learners):
        named = {(c["misconception"], c["function"]) for e in cohort.learners[student].values() for c in e.checks
                 if c["misconception"]}
        for key in named:
            seen[key] += 1
            who.setdefault(key, []).append(student)
    ranked = sorted(seen.items(), key=lambda item: (-item[1], item[0]))
    return [(text, function, who[(text, function)]) for (text, function), _n in ranked]


def distribution(cohort, bins=10):
    """How many learners' totals fall in each tenth of the maximum: [(low %, high %, count)]."""
    counts = [0] * bins
    for student in cohort.learners:
        share = cohort.total(student) / cohort.max_total if cohort.max_total else 0.0
        counts[min(bins - 1, int(share * bins))] += 1
    return [(100 * i // bins, 100 * (i + 1) // bins, n) for i, n in enumerate(counts)]


def _entries(cohort):
    return [e for student in sorted(cohort.learners) for e in cohort.learners[student].values() if e.status != "missing"]


def _bar(share, width=200):
    return f'<span class="bar" style="width:{round(share * width)}px"></span>'


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.2em 0.7em; text-align: left; border-bottom: 1px solid #ddd; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; height: 0.8em; background: #4a7fb0; }
.low .bar { background: #c0504d; }
p.note, li.note { color: #555; }
"""


def html_page(cohort, title="Cohort report"):
    e = html.escape
    totals = [cohort.total(s) for s in sorted(cohort.learners)]
    parts = [f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{e(title)}</title>",
             f"<style>{STYLE}</style></head><body>", f"<h1>{e(title)}</h1>"]
    if totals:
        parts.append(
            f"<p>{len(totals)} learners; total out of {_g(cohort.max_total)}: mean {statistics.mean(totals):.1f}, "
            f"median {_g(statistics.median(totals))}, lowest {_g(min(totals))}, highest {_g(max(totals))}.</p>"
        )
    parts.append("<h2>Score distribution</h2><table><tr><th>share of the maximum</th><th>learners</th><th></th></tr>")
    most = max([n for _l, _h, n in distribution(cohort)] + [1])
    for low, high, count in distribution(cohort):
        parts.append(f"<tr><td>{low}&ndash;{high}%</td><td class='n'>{count}</td><td>{_bar(count / most)}</td></tr>")
    parts.append("</table>")

    parts.append("<h2>Pass rate of every hidden check</h2>")
    parts.append("<p class='note'>Hardest first. A check is tried once by every handed-in notebook it grades; "
                 "an unreadable notebook counts as failing it.</p>")
    parts.append("<table><tr><th>check</th><th>function</th><th>what it enforces</th><th>points</th><th>passed</th>"
                 "<th></th></tr>")
    for check_id, function, points, passed, tried in sorted(check_rates(cohort), key=lambda r: (r[3] / (r[4] or 1), r[0])):
        share = passed / tried if tried else 0.0
        low = " class='low'" if share < 0.5 else ""
        parts.append(f"<tr{low}><td>{e(check_id)}</td><td>{e(function)}</td><td>{e(cohort.rules.get(check_id, ''))}</td>"
                     f"<td class='n'>{_g(points)}</td><td class='n'>{passed}/{tried}</td><td>{_bar(share)}</td></tr>")
    parts.append("</table>")

    parts.append("<h2>Answer questions</h2><table><tr><th>grade cell</th><th>right</th><th></th></tr>")
    for grade_id, right, tried in answer_rates(cohort):
        share = right / tried if tried else 0.0
        parts.append(f"<tr><td>{e(grade_id)}</td><td class='n'>{right}/{tried}</td><td>{_bar(share)}</td></tr>")
    parts.append("</table>")

    parts.append("<h2>Most common misconceptions</h2>")
    found = misconceptions(cohort)
    if found:
        parts.append("<table><tr><th>learners</th><th>function</th><th>misconception</th><th>who</th></tr>")
        for text, function, who in found:
            parts.append(f"<tr><td class='n'>{len(who)}</td><td>{e(function)}</td><td>{e(text)}</td>"
                         f"<td>{e(', '.join(who))}</td></tr>")
        parts.append("</table>")
    else:
        parts.append("<p>No failed check matched a known misconception.</p>")

    parts.append("<h2>Hand-ins that need a look</h2>")
    flagged = [s for s in sorted(cohort.learners) if remarks(cohort, s) or problems_of(cohort, s)]
    if flagged:
        parts.append("<table><tr><th>learner</th><th>what</th><th>details</th></tr>")
        for student in flagged:
            details = "<br>".join(e(text) for text in problems_of(cohort, student))
            parts.append(f"<tr><td>{e(student)}</td><td>{e(remarks(cohort, student))}</td><td>{details}</td></tr>")
        parts.append("</table>")
    else:
        parts.append("<p>Every learner handed in every lesson on time.</p>")
    unattributed = [n for n in cohort.notes if not any(n.startswith(f"{s}/") for s in cohort.learners)]
    if unattributed:
        parts.append("<p class='note'>Not given to any learner:</p><ul>")
        parts += [f"<li class='note'>{e(note)}</li>" for note in unattributed]
        parts.append("</ul>")

    parts.append("<h2>Every learner</h2><p class='note'>Each score links to that hand-in's feedback page.</p>"
                 "<table><tr><th>learner</th>")
    parts += [f"<th>{e(lesson.assignment)}</th>" for lesson in cohort.lessons] + ["<th>total</th></tr>"]
    for student in sorted(cohort.learners):
        cells = []
        for lesson in cohort.lessons:
            entry = cohort.entry(student, lesson.assignment)
            if entry.status == "missing":
                cells.append("&ndash;")
                continue
            page = "/".join(quote(part) for part in ("feedback", student, lesson.assignment,
                                                     lesson.notebook.rsplit(".", 1)[0] + ".html"))
            cells.append(f"<a href='{e(page)}'>{_g(entry.score)}/{_g(lesson.max_score)}</a>")
        parts.append(f"<tr><td>{e(student)}</td>" + "".join(f"<td class='n'>{c}</td>" for c in cells)
                     + f"<td class='n'>{_g(cohort.total(student))}/{_g(cohort.max_total)}</td></tr>")
    parts.append("</table></body></html>\n")
    return "\n".join(parts)
