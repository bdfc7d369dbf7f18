"""The plain-text table a batch prints at its end: one row per learner, no line wider than the terminal.

It reads a cohort (autograder/pipeline/cohort_report.py's Cohort) and says, per learner, each
lesson's score, the total and their remarks counted; the report page and checks.csv say which and why.
"""

import collections

TERMINAL = 100  # columns the terminal table fits in
LEARNER_WIDTH = (
    24  # a longer learner id is cut, with "…", in the terminal table (the report and the CSVs hold it whole)
)
NOTES_WIDTH = 16  # the least room the notes column gets before the lessons' headers are numbered


def clip(text, width):
    """``text`` cut to ``width`` characters, its last one "…" when something was cut."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def counted(cohort, student):
    """A learner's remarks as counts, for the terminal: "2 missing, 1 late, 1 by hand" (the report says which)."""
    kinds = collections.Counter()
    for lesson in cohort.lessons:
        entry = cohort.entry(student, lesson.assignment)
        kinds[
            entry.status if entry.status in ("missing", "unreadable") else "untouched" if entry.untouched else ""
        ] += 1
        kinds["late"] += entry.late_seconds > 0
        kinds["by hand"] += bool(entry.manual.get("grades"))
    return ", ".join(
        f"{kinds[kind]} {kind}" for kind in ("missing", "unreadable", "untouched", "late", "by hand") if kinds[kind]
    )


def summary_table(cohort, width=TERMINAL):
    """The plain-text table printed at the end of a batch, no line longer than ``width``.

    One row per learner: each lesson's score ("-": not handed in), the total, and the learner's
    remarks counted ("1 missing, 1 late"); cohort_report.html and checks.csv say which and why. When
    the lessons' names do not leave room, their columns are headed #1, #2, ... and a key follows.
    """
    names = [lesson.assignment for lesson in cohort.lessons]
    rows = []
    for student in sorted(cohort.learners):
        cells = [clip(student, LEARNER_WIDTH)]
        for lesson in cohort.lessons:
            entry = cohort.entry(student, lesson.assignment)
            cells.append("-" if entry.status == "missing" else f"{entry.score:g}/{lesson.max_score:g}")
        cells += [f"{cohort.total(student):g}/{cohort.max_total:g}", counted(cohort, student)]
        rows.append(cells)

    def widths(headers):
        return [max(len(r[i]) for r in [headers] + rows) for i in range(len(headers) - 1)]

    headers = ["learner", *names, "total", "notes"]
    key = []
    if sum(widths(headers)) + 2 * (len(headers) - 1) + NOTES_WIDTH > width:
        headers = ["learner", *(f"#{number}" for number in range(1, len(names) + 1)), "total", "notes"]
        key = _wrapped([f"#{number} {name}" for number, name in enumerate(names, start=1)], width)
    fixed = widths(headers)
    room = max(len("notes"), width - sum(fixed) - 2 * len(fixed))
    lines = []
    for row in [headers] + rows:
        cells = [cell.ljust(w) for cell, w in zip(row, fixed)] + [clip(row[-1], room)]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join(["-" * w for w in fixed] + ["-" * min(room, max(len(r[-1]) for r in [headers] + rows))]))
    return "\n".join(lines + key)


def _wrapped(parts, width):
    """``parts`` joined by two spaces into lines of at most ``width``."""
    lines = [""]
    for part in parts:
        part = clip(part, width)
        if lines[-1] and len(lines[-1]) + 2 + len(part) > width:
            lines.append("")
        lines[-1] = f"{lines[-1]}  {part}" if lines[-1] else part
    return lines
