"""Reproduce a grade: grade the hand-in a results.json names again, with the kit as it is now, and compare.

    python -m autograder reproduce OUT/results/<student>/<assignment>.json
    python -m autograder reproduce RESULTS.json HANDIN      # results written by `grade --output`

The results' provenance (extra_data.provenance, autograder/grading/provenance.py) names the hand-in
by its digest and, for a batch's results, by its file in OUT. The hand-in is graded as
`python -m autograder grade` grades it (a lesson notebook on its lesson's grade cells, as make grade
does), and the outcome compared with the recorded one: the score the hidden checks gave and every
test's points. Whatever the outcome, the fields of the provenance that differ are named: the
hand-in itself, the course's checks, the kit's grading code, its version, Python, a package, the
isolation mode. Exit 0 when the grade is reproduced, 1 when it is not, 2 when it cannot be tried.
"""

import json
from pathlib import Path

from autograder.grading import by_lesson, provenance

EXIT_SAME, EXIT_DIFFERENT, EXIT_CANNOT = 0, 1, 2
MAX_RESULTS = 16 << 20  # bytes of a results file read


class ReproduceError(ValueError):
    """The results or the hand-in cannot be used; the message names the file and the fix."""


def load(path):
    """The results (a dict) and their provenance ({} when they carry none)."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_RESULTS:
            raise ReproduceError(f"{path}: larger than any results file the kit writes")
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ReproduceError(
            f"{path}: cannot be read as a results.json ({err}); give a file make grade or "
            "`python -m autograder grade --output` wrote"
        ) from None
    if type(results) is not dict or not isinstance(results.get("score"), (int, float)):
        raise ReproduceError(f"{path}: not a results.json (no score); give a file make grade or `grade --output` wrote")
    extra = results.get("extra_data") if type(results.get("extra_data")) is dict else {}
    found = extra.get("provenance", results.get("provenance", {}))
    return results, found if type(found) is dict else {}


def handin_of(path, found, given=None):
    """The hand-in to grade: ``given``, else the file the provenance names in the results' OUT folder."""
    if given:
        return Path(given)
    file = found.get("file")
    path = Path(path).resolve()
    if type(file) is str and len(path.parents) > 2 and path.parents[1].name == "results":  # OUT/results/<student>/
        out = path.parents[2]
        handin = (out / file).resolve()
        if handin.is_relative_to(out / "submitted") and handin.is_file():
            return handin
    raise ReproduceError(
        f"{path}: the results do not name a hand-in found here; give it: "
        "python -m autograder reproduce RESULTS.json HANDIN"
    )


def scores(results):
    """(the score the hidden checks gave, {test name: points})."""
    auto = results.get(
        "autograded_score", (results.get("extra_data") or {}).get("autograded_score", results.get("score"))
    )
    tests = results.get("tests") if type(results.get("tests")) is list else []
    return auto, {t.get("name"): t.get("score") for t in tests if type(t) is dict}


def moved_tests(before, after):
    """["name old -> new"] of the tests whose points differ (a test only one side has counts as 0 on the other)."""
    said = []
    for name in sorted(set(before) | set(after), key=str):
        old, new = before.get(name, 0), after.get(name, 0)
        if old != new:
            said.append(f"{name} {old:g} -> {new:g}")
    return said


def grade_now(handin):
    """The results of grading ``handin`` now, as the CLI's grade gives them."""
    return by_lesson.results_json(by_lesson.grade_path(handin))


def compare(results, found, handin, now):
    """(whether the grade is reproduced, lines that say how)."""
    current = provenance.of_handin(handin)
    (old, old_tests), (new, new_tests) = scores(results), scores(now)
    moved = moved_tests(old_tests, new_tests)
    same = old == new and not moved
    lines = [
        f"recorded: {old:g} ({provenance.short(found) or 'no provenance recorded'})",
        f"now:      {new:g} ({provenance.short(current)})",
    ]
    lines.append(
        "reproduced: the same score and the same points on every test"
        if same
        else f"not reproduced: {old:g} then, {new:g} now"
    )
    if moved:
        lines.append("tests that moved: " + "; ".join(moved))
    if not found:
        lines.append("the results carry no provenance: what made them cannot be compared")
    else:
        differ = provenance.differences(found, current)
        if differ:
            lines.append("what differs in the provenance:")
            lines += [f"  {field}: {_short(then)} then, {_short(here)} now" for field, then, here in differ]
            lines.append("  so: " + "; ".join(provenance.reasons(found, current)))
        else:
            lines.append("the provenance is the same (hand-in, checks, kit, Python, packages, isolation)")
    return same, lines


def _short(value):
    value = "none" if value is None else str(value)
    return value[: provenance.SHORT] if len(value) == 64 else value


def run(results_path, handin=None):
    """(exit code, text) of reproducing the grade in ``results_path``."""
    try:
        results, found = load(results_path)
        handin = handin_of(results_path, found, handin)
    except ReproduceError as err:
        return EXIT_CANNOT, f"cannot reproduce: {err}"
    try:
        now = grade_now(handin)
    except Exception as err:  # noqa: BLE001 - SubmissionError and the like: said, with the hand-in named
        return EXIT_CANNOT, f"cannot reproduce: {handin} cannot be graded now ({err})"
    same, lines = compare(results, found, handin, now)
    return (EXIT_SAME if same else EXIT_DIFFERENT), "\n".join([f"{results_path}: hand-in {handin}", *lines])
