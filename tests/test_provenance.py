"""Grades that hold for a term: provenance on every grade, an append-only history, regrade with a diff, reproduce.

The chain runs on a copy of the fixture course (tests/fixture_course: two learners, one lesson), graded
with GRAPHKIT_COURSE naming the copy, each step a process of its own as make runs it:

1. a batch killed halfway through writing a line of the history (tests/history_killer.py), then run again;
2. a dry-run regrade of the unchanged course, and one after a check of the copy changed its expected
   behaviour (longest_word/first_of_equal drops its case with a tie, which bob's last-of-the-longest
   answers wrong): neither writes anything;
3. the regrade itself, then one more that has nothing left to do;
4. reproduce on the first run's results (kept aside) and on the regraded ones.
"""

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from autograder.course import active
from autograder.grading import provenance
from autograder.pipeline import history
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixture_course"
COPY = "fixture_copy"
CHECK = "longest_word/first_of_equal"
TIE_CASE = ', Case("longest", ("xy ab c",))'  # the case bob's answer fails: of two longest words, it keeps the last
LESSON = "lesson1_words"


# ---------------------------------------------------------------- the pieces, on their own


def test_history_skips_a_cut_line_and_the_next_append_ends_it(tmp_path):
    """A line cut by a kill is skipped on read; the next append starts on a line of its own, losing nothing."""
    first = {"student": "ada", "assignment": "a1", "score": 1.0, "tests": {}, "provenance": {}}
    history.append(tmp_path, [first])
    with open(history.path_of(tmp_path), "ab") as handle:
        handle.write(b'{"student":"bob","assign')
    assert history.read(tmp_path) == [first]
    second = dict(first, student="bob")
    history.append(tmp_path, [second])
    assert history.read(tmp_path) == [first, second]
    assert history.path_of(tmp_path).read_bytes().count(b"\n") == 3


def test_history_ignores_lines_that_are_not_decisions(tmp_path):
    history.path_of(tmp_path).write_bytes(b'[1, 2]\n{"student": 3}\n\xff\xfe\n{"student":"a","assignment":"b"}\n')
    assert history.read(tmp_path) == [{"student": "a", "assignment": "b"}]


def test_a_decision_is_new_only_when_its_grade_or_provenance_differs():
    made = {"handin": "1" * 64, "checks": "2" * 64, "python": "CPython 3.11.7", "graded_at": "2026-01-01T00:00:00Z"}
    line = {"student": "a", "assignment": "b", "score": 3.0, "tests": {"t": 3.0}, "provenance": made}
    assert history.same(line, {**line, "provenance": {**made, "graded_at": "2026-02-01T00:00:00Z"}})
    assert not history.same(line, {**line, "score": 2.0})
    assert not history.same(line, {**line, "provenance": {**made, "python": "CPython 3.12.1"}})
    assert not history.same(None, line)


def test_differences_name_the_part_of_the_provenance_that_changed():
    before = {
        "handin": "a",
        "checks": "c",
        "course": "c1",
        "machinery": "m",
        "kit": "0.1.0",
        "python": "CPython 3.11.7",
        "packages": {"hypothesis": "6.1"},
        "isolation": "full",
        "graded_at": "x",
    }
    assert provenance.differences(before, dict(before, graded_at="y")) == []
    assert provenance.reasons(before, dict(before, course="c2", checks="d")) == ["the course's checks changed"]
    assert provenance.reasons(before, dict(before, handin="b")) == ["the hand-in changed"]
    assert provenance.reasons(before, dict(before, packages={"hypothesis": "6.2"})) == [
        "hypothesis changed (6.1 -> 6.2)"
    ]
    assert provenance.reasons(before, dict(before, python="CPython 3.12.1")) == [
        "Python changed (CPython 3.11.7 -> CPython 3.12.1)"
    ]


def test_the_digest_of_the_checks_is_the_record_caches_own():
    """The provenance's checks digest is the one in every record's cache key, and its two parts hash its files."""
    from autograder.grading import cellgrades, sources_digest

    made = provenance.of_grading()
    assert made["checks"] == cellgrades.fingerprint()
    files = provenance.fingerprinted_files()
    assert sources_digest.digest_of(files) == made["checks"]
    machinery = str(active.KIT_ROOT / "autograder") + "/"
    parts = {"course": [f for f in files if not str(f).startswith(machinery)]}
    parts["machinery"] = [f for f in files if str(f).startswith(machinery)]
    assert all(parts.values())
    assert {part: sources_digest.digest_of(them) for part, them in parts.items()} == provenance.fingerprints()
    assert {part: made[part] for part in parts} == provenance.fingerprints()
    assert set(provenance.FIELDS) <= set(provenance.of_handin(FIXTURE / "solutions" / "words.py"))


# ---------------------------------------------------------------- the chain, on a copy of the fixture course


def run(env, *args, script=None):
    command = [script] if script else ["-m"]
    return subprocess.run(
        [sys.executable, *command, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def contents(out):
    """{relative path: sha256} of every file under out but the logs and the demo cohort the batch rebuilds as input."""
    return {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.relative_to(out).parts[0] not in ("logs", "demo_submissions")
    }


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    root = tmp_path_factory.mktemp("provenance")
    course = root / "courses" / COPY
    shutil.copytree(FIXTURE, course, ignore=shutil.ignore_patterns("__pycache__", ".prepared.json"))
    env = dict(
        os.environ,
        GRAPHKIT_COURSE=COPY,
        PYTHONPATH=os.pathsep.join(filter(None, [str(root / "courses"), str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    out = root / "out"
    seen = {"out": out, "course": course, "env": env}
    batch = ["--out", str(out), "--workers", "2"]
    seen["killed"] = run(env, *batch, script=str(ROOT / "tests" / "history_killer.py"))
    seen["cut"] = history.path_of(out).read_bytes()
    seen["finished"] = run(env, "autograder.pipeline.batch", *batch)
    seen["first"] = contents(out)
    shutil.copy(out / "results" / "bob" / f"{LESSON}.json", root / "bob_first.json")
    seen["bob_first"] = root / "bob_first.json"
    regrade = ["autograder.pipeline.regrade", *batch]
    seen["dry_unchanged"] = run(env, *regrade, "--dry-run")
    checks = course / "checks.py"
    assert TIE_CASE in checks.read_text(encoding="utf-8")
    checks.write_text(
        checks.read_text(encoding="utf-8").replace(TIE_CASE, ","), encoding="utf-8"
    )  # a tuple of one case
    seen["dry"] = run(env, *regrade, "--dry-run")
    seen["after_dry"] = contents(out)
    seen["regrade"] = run(env, *regrade)
    seen["regraded"] = contents(out)
    seen["again"] = run(env, *regrade)
    seen["after_again"] = contents(out)
    seen["reproduce_old"] = run(
        env, "autograder", "reproduce", str(seen["bob_first"]), str(out / "submitted" / "bob" / LESSON / "words.ipynb")
    )
    seen["reproduce_new"] = run(env, "autograder", "reproduce", str(out / "results" / "bob" / f"{LESSON}.json"))
    seen["history"] = run(env, "autograder.pipeline.history", "--out", str(out), "--student", "bob")
    seen["cli"] = run(env, "autograder", "grade", str(out / "submitted" / "ada" / LESSON / "words.ipynb"), "--json")
    return seen


@pytest.mark.slow
def test_a_batch_killed_mid_write_leaves_a_readable_history(chain):
    """Killed halfway through bob's line, the history holds ada's whole line; the rerun ends the cut line and adds
    bob's."""
    assert chain["killed"].returncode == -9, chain["killed"].stderr[-2000:]
    assert not chain["cut"].endswith(b"\n") and chain["cut"].count(b"\n") == 1
    assert chain["finished"].returncode == 0, chain["finished"].stderr[-3000:]
    first = history.read(chain["out"])[:2]
    assert sorted(line["student"] for line in first) == ["ada", "bob"]
    assert all(line["provenance"]["handin"] and line["provenance"]["checks"] for line in first)


@pytest.mark.slow
def test_every_output_names_what_made_the_grade(chain):
    """results/*.json (extra_data), checks.csv, provenance.csv and the feedback page carry the grade's provenance."""
    out = chain["out"]
    results = json.loads((out / "results" / "bob" / f"{LESSON}.json").read_text(encoding="utf-8"))
    made = results["extra_data"]["provenance"]
    assert set(provenance.FIELDS) <= set(made)
    assert made["handin"] == provenance.handin_digest(out / "submitted" / "bob" / LESSON / "words.ipynb")
    with open(out / "provenance.csv", newline="", encoding="utf-8") as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert rows["bob"]["checks"] == made["checks"] and rows["bob"]["handin"] == made["handin"]
    with open(out / "checks.csv", newline="", encoding="utf-8") as handle:
        checks = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert checks["bob"]["provenance"] == f"{LESSON}: {provenance.short(made)}"
    page = (out / "feedback" / "bob" / LESSON / "words.html").read_text(encoding="utf-8")
    assert provenance.short(made) in page


@pytest.mark.slow
def test_a_dry_run_shows_exactly_the_learners_a_changed_check_moves_and_writes_nothing(chain):
    assert "no hand-in is affected" in chain["dry_unchanged"].stdout, chain["dry_unchanged"].stderr[-2000:]
    said = chain["dry"].stdout
    assert chain["dry"].returncode == 0, chain["dry"].stderr[-3000:]
    assert "2 hand-in(s) would be graded again (2 by the course's checks changed" in said
    moved = said.splitlines()[2:]
    assert len(moved) == 1 and moved[0].split()[:5] == ["bob", LESSON, "9", "->", "12"], said
    assert CHECK in moved[0] and "the course's checks changed" in moved[0]
    assert chain["after_dry"] == chain["first"], "a dry run writes nothing"


@pytest.mark.slow
def test_the_regrade_moves_exactly_the_affected_learner_and_keeps_the_old_grade(chain):
    said = chain["regrade"].stdout
    assert chain["regrade"].returncode == 0, chain["regrade"].stderr[-3000:]
    rows = said.splitlines()[2:]
    assert len(rows) == 1 and rows[0].split()[:5] == ["bob", LESSON, "9", "->", "12"], said
    assert f"{CHECK} (longest) 0 -> 3" in rows[0] and "the course's checks changed" in rows[0].split(" 0 -> 3")[1]
    bob = [line for line in history.read(chain["out"]) if line["student"] == "bob"]
    assert [line["score"] for line in bob] == [9.0, 12.0]
    assert bob[0]["provenance"]["course"] != bob[1]["provenance"]["course"]
    assert bob[0]["provenance"]["handin"] == bob[1]["provenance"]["handin"]
    assert "the course's checks changed" in chain["history"].stdout and "first grade" in chain["history"].stdout


@pytest.mark.slow
def test_a_regrade_that_changes_nothing_says_so_and_writes_nothing(chain):
    assert "the regrade changed nothing" in chain["again"].stdout, chain["again"].stdout + chain["again"].stderr[-2000:]
    assert chain["after_again"] == chain["regraded"]


@pytest.mark.slow
def test_reproduce_names_the_changed_checks_and_matches_an_unchanged_kit(chain):
    old, new = chain["reproduce_old"], chain["reproduce_new"]
    assert old.returncode == 1, old.stdout + old.stderr
    assert "not reproduced: 9 then, 12 now" in old.stdout and "so: the course's checks changed" in old.stdout
    assert new.returncode == 0, new.stdout + new.stderr
    assert "reproduced: the same score" in new.stdout and "the provenance is the same" in new.stdout


@pytest.mark.slow
def test_grade_json_carries_the_provenance_in_extra_data(chain):
    """`python -m autograder grade --json` names what made the grade under extra_data, as Gradescope keeps it."""
    assert chain["cli"].returncode == 0, chain["cli"].stderr[-2000:]
    made = json.loads(chain["cli"].stdout)["extra_data"]["provenance"]
    assert made["handin"] == provenance.handin_digest(chain["out"] / "submitted" / "ada" / LESSON / "words.ipynb")
    recorded = json.loads((chain["out"] / "results" / "ada" / f"{LESSON}.json").read_text(encoding="utf-8"))
    assert made["checks"] == recorded["extra_data"]["provenance"]["checks"]


def test_package_versions_are_what_importlib_metadata_reads():
    """The versions a provenance names, read from the .dist-info folders' names, are importlib.metadata's."""
    import importlib.metadata

    for name in (provenance.KIT, *provenance.PACKAGES):
        assert provenance._version(name) == importlib.metadata.version(name), name
    assert provenance._version("no-such-package-here") == "none"
