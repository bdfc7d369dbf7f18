"""The demo cohort's scores, read from a graded OUT folder: what a change to the kit must leave as it was.

    python -m tests.demo_snapshot OUT    # rewrite tests/expected/demo_scores.json from OUT
                                         # (after a change meant to move a score)

Kept: every row of grades.csv and checks.csv, and each results/*.json's score and its tests' names and points.
Left out: when the demo was built and graded, the due dates (the demo's term is relative to today), provenance,
and the notes, whose wording may change while no score does.
"""

import csv
import json
import sys
from pathlib import Path

EXPECTED = Path(__file__).resolve().parent / "expected" / "demo_scores.json"
VARIES = ("timestamp", "duedate", "provenance", "problems")


def snapshot(out):
    out = Path(out)
    kept = {}
    for name in ("grades.csv", "checks.csv"):
        with (out / name).open(encoding="utf-8", newline="") as rows:
            kept[name] = [
                {key: value for key, value in row.items() if key not in VARIES} for row in csv.DictReader(rows)
            ]
    kept["results"] = {}
    for path in sorted((out / "results").rglob("*.json")):
        results = json.loads(path.read_text(encoding="utf-8"))
        kept["results"][path.relative_to(out / "results").as_posix()] = {
            "score": results["score"],
            "tests": [[test["name"], test.get("score"), test.get("max_score")] for test in results["tests"]],
        }
    return kept


def main(argv=None):
    (out,) = argv if argv is not None else sys.argv[1:]
    EXPECTED.write_text(json.dumps(snapshot(out), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {EXPECTED}")


if __name__ == "__main__":
    main()
