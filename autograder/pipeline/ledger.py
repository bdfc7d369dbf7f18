"""The provenance of every grade of a batch: in results/*.json, checks.csv, OUT/provenance.csv and the history.

A batch's Ledger is handed each learner's results as write_outputs streams the cohort. It puts
the hand-in's provenance (autograder/grading/provenance.py) under the results' extra_data, keeps a
row for OUT/provenance.csv (the table beside the gradebook: one row per hand-in) and a short form
for checks.csv's provenance column, and appends to OUT/history.jsonl the decisions that differ
from each hand-in's last one (autograder/pipeline/history.py).

What made a record is stamped once, when a record key is first seen (cache/provenance/<key>.json,
provenance.stamp): a rerun that grades nothing again writes the same provenance, so every file
stays as it was.
"""

import csv
import io

from autograder.course.lessons import LESSONS
from autograder.files import write_if_changed
from autograder.grading import cellgrades, provenance
from autograder.pipeline import history

NAME = "provenance.csv"
COLUMNS = (
    "student_id",
    "assignment",
    "score",
    "autograded_score",
    "handin",
    "checks",
    "course",
    "machinery",
    "kit",
    "python",
    "packages",
    "isolation",
    "graded_at",
)


def csv_text(rows):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL).writerows(rows)
    return out.getvalue()


class Ledger:
    def __init__(self, course, keys):
        self.course, self.keys = course, keys
        self.notebooks = {lesson.assignment: lesson.notebook for lesson in LESSONS}
        self.last = history.latest(history.read(course.root))
        self.rows, self.short = [], {}
        self.appended = []

    def provenance(self, student, assignment):
        relative = f"{student}/{assignment}/{self.notebooks[assignment]}"
        key = self.keys.get(relative)
        if key and key.startswith("problem:"):  # an unreadable hand-in: graded again as the checks or kit change
            key = cellgrades.record_key((), {}, (key,))
        graded = provenance.stamp(self.course.cache, key) if key else provenance.of_grading()
        return {
            **provenance.of_handin(self.course.root / "submitted" / relative, graded),
            "file": f"submitted/{relative}",
        }

    def stamped(self, student, assignment, results):
        """``results`` with the hand-in's provenance under extra_data."""
        found = self.provenance(student, assignment)
        return {**results, "extra_data": {**(results.get("extra_data") or {}), "provenance": found}}

    def add(self, student, written):
        """One learner's results ({assignment: results}): their rows, and their new decisions appended to the
        history."""
        new = []
        for assignment, results in written.items():
            found = (results.get("extra_data") or {}).get("provenance") or {}
            packages = ";".join(f"{name}={version}" for name, version in sorted((found.get("packages") or {}).items()))
            self.rows.append(
                [
                    student,
                    assignment,
                    f"{results.get('score', 0):g}",
                    f"{results.get('autograded_score', results.get('score', 0)):g}",
                    *(found.get(c, "") for c in COLUMNS[4:10]),
                    packages,
                    found.get("isolation", ""),
                    found.get("graded_at", ""),
                ]
            )
            self.short.setdefault(student, []).append(f"{assignment}: {provenance.short(found)}")
            line = history.decision(student, assignment, results)
            if not history.same(self.last.get((student, assignment)), line):
                new.append(line)
        history.append(self.course.root, new)
        self.appended += new

    def checks_csv(self, text):
        """checks.csv's text with a last column, provenance: each of the learner's hand-ins in short."""
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            return text
        rows[0].append("provenance")
        for row in rows[1:]:
            row.append(" | ".join(self.short.get(row[0], ())))
        return csv_text(rows)

    def finish(self):
        """OUT/provenance.csv: one row per hand-in, beside the gradebook (rewritten only when it changes)."""
        write_if_changed(self.course.root / NAME, csv_text([list(COLUMNS), *sorted(self.rows)]))
