"""OUT/history.jsonl: every grade a batch decided, one JSON line each, appended and never rewritten.

    make history STUDENT=ada [LESSON=lesson1_graphs] [OUT=out]
    python -m autograder.pipeline.history --out OUT --student ID [--lesson ASSIGNMENT] [--json]

A line is one decision about one hand-in: the learner, the lesson, the score the gradebook gives
(after grades set by hand and the late penalty), the score the hidden checks gave, each test's
points and the grade's provenance (autograder/grading/provenance.py). A batch appends a line for
a hand-in only when its grade or provenance differs from that hand-in's last line, so a rerun that
changes nothing appends nothing, and every earlier grade stays where it was written.

Lines are written with O_APPEND, each in one write, and fsync'd before the batch goes on. A kill
can leave at most the last line cut short: reading skips any line that is not a whole JSON object,
and the next append first ends the cut line, so it can never swallow the line after it.
"""

import argparse
import json
import os
import sys
from pathlib import Path

NAME = "history.jsonl"
MAX_LINE = 4 << 20  # bytes of one line read back: a longer one is not the batch's


def path_of(out):
    return Path(out) / NAME


def decision(student, assignment, results):
    """The line for one hand-in's results (results/*.json, provenance under extra_data)."""
    extra = results.get("extra_data") or {}
    return {
        "student": student,
        "assignment": assignment,
        "score": results.get("score", 0.0),
        "autograded_score": results.get("autograded_score", results.get("score", 0.0)),
        "max_score": results.get("max_score", extra.get("max_score")),
        "tests": {test.get("name", ""): test.get("score", 0.0) for test in results.get("tests", [])},
        "provenance": extra.get("provenance") or {},
    }


def same(line, other):
    """Whether two decisions are one grade: the same scores, tests and provenance (when it was graded aside)."""
    if line is None or other is None:
        return False

    def kept(found):
        grade = {key: value for key, value in found.items() if key != "provenance"}
        return grade, {key: value for key, value in (found.get("provenance") or {}).items() if key != "graded_at"}

    return kept(line) == kept(other)


def read(out):
    """Every whole decision in OUT's history, oldest first; a cut or foreign line is skipped."""
    try:
        data = path_of(out).read_bytes()
    except FileNotFoundError:
        return []
    found = []
    for raw in data.split(b"\n"):
        if not raw.strip() or len(raw) > MAX_LINE:
            continue
        try:
            line = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        if type(line) is dict and type(line.get("student")) is str and type(line.get("assignment")) is str:
            found.append(line)
    return found


def latest(lines):
    """{(student, assignment): its last decision}."""
    return {(line["student"], line["assignment"]): line for line in lines}


def append(out, lines):
    """Append decisions to OUT's history, each line in one write, then fsync; a cut last line is ended first."""
    if not lines:
        return
    path = path_of(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size:
            with open(path, "rb") as handle:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    os.write(fd, b"\n")
        for line in lines:
            os.write(fd, json.dumps(line, sort_keys=True, separators=(",", ":")).encode() + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- make history


def table(lines):
    """One learner's decisions as a text table, oldest first."""
    if not lines:
        return ""
    from autograder.grading import provenance

    rows = [("graded at", "lesson", "score", "checks gave", "what changed", "provenance")]
    before = {}
    for line in lines:
        found = line.get("provenance") or {}
        key = line["assignment"]
        changed = "first grade" if key not in before else (", ".join(provenance.reasons(before[key], found)) or "-")
        before[key] = found
        most = line.get("max_score")
        rows.append(
            (
                found.get("graded_at", "?"),
                key,
                f"{line.get('score', 0):g}" + (f"/{most:g}" if most else ""),
                f"{line.get('autograded_score', 0):g}",
                changed,
                provenance.short(found),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1] for row in rows)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m autograder.pipeline.history",
        description="One learner's grades over time, from OUT/history.jsonl.",
    )
    parser.add_argument("--out", default="out", help="the cohort's grading folder (default: out)")
    parser.add_argument("--student", required=True, help="the learner's id")
    parser.add_argument("--lesson", help="one lesson's assignment id (default: every lesson)")
    parser.add_argument("--json", action="store_true", help="print the decisions as JSON lines")
    args = parser.parse_args(argv)
    if not path_of(args.out).is_file():
        print(f"{path_of(args.out)} does not exist: make grade OUT={args.out} writes it", file=sys.stderr)
        return 2
    lines = [
        line for line in read(args.out) if line["student"] == args.student and args.lesson in (None, line["assignment"])
    ]
    if not lines:
        print(
            f"no grade of {args.student}{' in ' + args.lesson if args.lesson else ''} in {path_of(args.out)}",
            file=sys.stderr,
        )
        return 1
    if args.json:
        print("\n".join(json.dumps(line, sort_keys=True) for line in lines))
    else:
        print(table(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
