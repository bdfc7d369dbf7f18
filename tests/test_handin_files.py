"""Hand-in files as the kit reads them: once, from one descriptor, and the names and downloads around them.

* a hand-in that changes while it is graded: a learner who can write to the submissions
  folder during the batch swaps the notebook, or its folder, for a symbolic link to the
  instructor's source notebook between the kit's scan and its read, or hands in a hard
  link to it, or puts a folder where the notebook was. None of it may bring the source
  notebook (its solutions) into OUT/submitted, and each is a problem of that learner
  alone. The swap is injected by the test between the scan and the read (or right after
  the kit's check of the notebook), at a function the kit calls anyway;
* timestamp.txt: values that are no date, a zone that is a path, a 30 GB sparse file:
  each is a problem naming the file and the fix for that learner alone; good values are
  mirrored in nbgrader's own format, as nbgrader reads them;
* an LMS download where two user ids share one login: two learners, never one
  overwriting the other, and a note naming both;
* bidi and control characters in file names are escaped in every note; a zip with one
  entry name twice gives a note naming the entry and what was kept.

The instances are in tests/hostile_handins/handin_files.json and in the builders below.
Nothing here runs nbgrader's autograde: the mirror (autograder/pipeline/handins.py) and
the collector (autograder/pipeline/collect.py) are called directly.
"""

import json
import os
import shutil
import unicodedata
import zipfile

import pytest

from autograder.course.lessons import LESSONS
from autograder.files import sha
from autograder.nbgrader.course_folder import Course
from autograder.pipeline import collect, folder_scan, handins
from autograder.pipeline.names import show
from tests.conftest import ROOT, prepared_course

DATA = json.loads((ROOT / "tests" / "hostile_handins" / "handin_files.json").read_text(encoding="utf-8"))
LESSON1, LESSON2 = LESSONS[:2]
A, NB = LESSON1.assignment, LESSON1.notebook


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A course folder prepared once for the module, copied for each test."""
    return prepared_course(tmp_path_factory.mktemp("handin_files") / "course", pictures=False).root


def fresh(template, tmp_path):
    shutil.copytree(template, tmp_path / "out")
    return Course(tmp_path / "out")


def own_notebook(course, student, lesson=LESSON1):
    """The release notebook with a code cell of the learner's own, which names them."""
    nb = json.loads(course.release(lesson).read_text(encoding="utf-8"))
    nb["cells"].append(
        {
            "cell_type": "code",
            "id": "own-work",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": f"# {student}'s own work",
        }
    )
    return json.dumps(nb, indent=1)


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)


def mirrored(course, student, name=NB, assignment=A):
    path = course.root / "submitted" / student / assignment / name
    return path.read_text(encoding="utf-8") if path.exists() else None


def source_notebook(course, lesson=LESSON1):
    return course.root / "source" / lesson.assignment / lesson.notebook


def assert_printable(lines):
    """No line holds a character a terminal or a page would act on (bidi, control, separators)."""
    for line in lines:
        odd = [unicodedata.name(c, hex(ord(c))) for c in line if not c.isprintable()]
        assert not odd, (odd, line.encode("unicode_escape")[:200])


# ---------------------------------------------------------------- a hand-in that changes while it is graded


def swap(path, target):
    """Put a symbolic link to ``target`` where ``path`` (a file or a folder) is."""
    shutil.rmtree(path) if path.is_dir() else path.unlink()
    path.symlink_to(target)


@pytest.mark.parametrize("what", ("notebook", "folder"))
@pytest.mark.parametrize("moment", ("scan", "from_notebook"))
def test_a_swap_for_a_link_between_check_and_read_brings_no_solutions(template, tmp_path, monkeypatch, what, moment):
    """mal's notebook (or his lesson folder) becomes a link to the source notebook after the scan, or after the
    notebook was checked: OUT/submitted holds his own work or the release notebook, never the source."""
    course = fresh(template, tmp_path)
    handed = tmp_path / "handed_in"
    write(handed / "mal" / A / NB, own_notebook(course, "mal"))
    source = source_notebook(course)
    assert "BEGIN SOLUTION" in source.read_text(encoding="utf-8")
    link, target = (handed / "mal" / A / NB, source) if what == "notebook" else (handed / "mal" / A, source.parent)
    owner = folder_scan if moment == "scan" else handins  # the module that calls it at that moment
    real, swapped = getattr(owner, moment), []

    def then_swap(*args, **kwargs):
        result = real(*args, **kwargs)
        if not swapped:
            swap(link, target)
            swapped.append(moment)
        return result

    monkeypatch.setattr(owner, moment, then_swap)
    handins.mirror(course, handed, "swap")
    assert swapped == [moment]
    text = mirrored(course, "mal")
    assert "BEGIN SOLUTION" not in text
    problem = course.problems().get(f"mal/{A}/{NB}", "")
    assert "# mal's own work" in text or "symbolic link" in problem, problem


def test_a_hard_link_a_folder_or_a_pipe_in_the_notebooks_place_is_that_learners_problem(
    template, tmp_path, monkeypatch
):
    """mal hands in a hard link to the source notebook; kim's notebook becomes a folder after the scan, zed's a
    named pipe no one writes to: each is refused with a problem naming the file and the fix (the pipe holds
    nothing up), and ada, between them, is mirrored as ever."""
    course = fresh(template, tmp_path)
    handed = tmp_path / "handed_in"
    for student in ("ada", "kim", "zed"):
        write(handed / student / A / NB, own_notebook(course, student))
    (handed / "mal" / A).mkdir(parents=True)
    os.link(source_notebook(course), handed / "mal" / A / NB)
    real = folder_scan.scan

    def then_a_folder(*args, **kwargs):
        found = real(*args, **kwargs)
        (handed / "kim" / A / NB).unlink()
        (handed / "kim" / A / NB / "inside").mkdir(parents=True)
        (handed / "zed" / A / NB).unlink()
        os.mkfifo(handed / "zed" / A / NB)
        return found

    monkeypatch.setattr(folder_scan, "scan", then_a_folder)
    handins.mirror(course, handed, "links")
    problems = course.problems()
    assert "# ada's own work" in mirrored(course, "ada") and f"ada/{A}/{NB}" not in problems
    mal = problems[f"mal/{A}/{NB}"]
    assert "hard link" in mal and f"mal/{A}/{NB}" in mal and "hand in a copy" in mal, mal
    for student, kind in (("kim", "a folder"), ("zed", "a named pipe")):
        problem = problems[f"{student}/{A}/{NB}"]
        assert f"{student}/{A}/{NB}: not a regular file ({kind}); hand in the file itself" in problem, problem
    for student in ("mal", "kim", "zed"):
        assert mirrored(course, student) == course.release(LESSON1).read_text(encoding="utf-8")
    received = course.state["received"]
    assert received[f"ada/{A}/{NB}"] == sha((handed / "ada" / A / NB).read_bytes())
    assert f"mal/{A}/{NB}" not in received


# ---------------------------------------------------------------- timestamp.txt


def stamp_bytes(instance):
    return bytes.fromhex(instance["hex"]) if "hex" in instance else instance["text"].encode("utf-8")


def test_a_timestamp_that_is_no_date_is_a_problem_for_that_learner_alone(template, tmp_path):
    """Every hostile timestamp.txt (and a 30 GB sparse one) is that learner's problem, naming the file and the fix;
    every good one is mirrored in nbgrader's own format, read as nbgrader reads it."""
    from nbgrader.utils import parse_utc

    course = fresh(template, tmp_path)
    handed = tmp_path / "handed_in"
    refused = DATA["timestamps"]["refused"]
    accepted = DATA["timestamps"]["accepted"]
    for number, instance in enumerate(refused):
        write(handed / f"bad{number}" / A / NB, own_notebook(course, f"bad{number}"))
        write(handed / f"bad{number}" / A / "timestamp.txt", stamp_bytes(instance))
    write(handed / "sparse" / A / NB, own_notebook(course, "sparse"))
    with open(handed / "sparse" / A / "timestamp.txt", "wb") as handle:
        handle.truncate(DATA["timestamps"]["sparse_bytes"])
    for number, instance in enumerate(accepted):
        write(handed / f"good{number}" / A / NB, own_notebook(course, f"good{number}"))
        write(handed / f"good{number}" / A / "timestamp.txt", stamp_bytes(instance))

    handins.mirror(course, handed, "timestamps")
    problems = course.problems()
    for student in [f"bad{n}" for n in range(len(refused))] + ["sparse"]:
        problem = problems.get(f"{student}/{A}/{NB}", "")
        assert f"{student}/{A}/timestamp.txt" in problem and "hand in again" in problem, (student, problem)
        assert mirrored(course, student, "timestamp.txt") is None, student
        assert mirrored(course, student) == course.release(LESSON1).read_text(encoding="utf-8")
    assert "cap" in problems[f"sparse/{A}/{NB}"]
    for number, instance in enumerate(accepted):
        student = f"good{number}"
        assert f"{student}/{A}/{NB}" not in problems, problems.get(f"{student}/{A}/{NB}")
        assert f"# {student}'s own work" in mirrored(course, student)
        text = mirrored(course, student, "timestamp.txt")
        assert text == instance["utc"] + " UTC\n", (instance, text)
        assert parse_utc(text.strip()).strftime("%Y-%m-%d %H:%M:%S.%f") == instance["utc"]
        if instance["as_nbgrader"]:
            assert parse_utc(instance["text"].strip()) == parse_utc(text.strip()), instance

    # fixed, it is graded again as the learner's own; a rerun with nothing new writes nothing
    write(handed / "bad0" / A / "timestamp.txt", accepted[0]["text"])
    changed, _notes = handins.mirror(course, handed, "timestamps")
    assert changed == {("bad0", A)}
    assert "# bad0's own work" in mirrored(course, "bad0") and f"bad0/{A}/{NB}" not in course.problems()
    assert handins.mirror(course, handed, "timestamps")[0] == set()


# ---------------------------------------------------------------- one login, two LMS user ids


def entry(bundle, name, data, when=(2025, 3, 14, 7, 0, 0)):
    bundle.writestr(zipfile.ZipInfo(name, date_time=when), data)


def download(path, entries):
    with zipfile.ZipFile(path, "w") as bundle:
        for item in entries:
            entry(bundle, *item)
    return path


def collected(dest):
    return {p.relative_to(dest).as_posix(): p.read_text(encoding="utf-8") for p in sorted(dest.rglob("*.ipynb"))}


def test_two_user_ids_with_one_login_are_two_learners(tmp_path):
    """Two Canvas users both shown as 'ada' (two learners of one name): each is a learner of their own, named
    by login and user id, with a note naming both; later downloads keep each one's id, a newcomer gets their own."""
    dest = tmp_path / "submitted"
    first = download(
        tmp_path / "one.zip",
        [
            (f"ada_1001_2001_{NB}", "ada one", (2025, 3, 14, 7, 0, 0)),
            (f"ada_1002_2002_{NB}", "ada two", (2025, 3, 14, 9, 0, 0)),
            (f"grace_1003_2003_{NB}", "grace", (2025, 3, 14, 8, 0, 0)),
        ],
    )
    got = collect.collect(first, dest, A)
    assert collected(dest) == {
        f"ada_1001/{A}/{NB}": "ada one",
        f"ada_1002/{A}/{NB}": "ada two",
        f"grace/{A}/{NB}": "grace",
    }
    note = [n for n in got.notes if "1001" in n and "1002" in n]
    assert note and "ada_1001" in note[0] and "ada_1002" in note[0], got.notes

    # lesson 2: only the first ada hands in; she keeps her id
    second = download(tmp_path / "two.zip", [(f"ada_1001_2011_{LESSON2.notebook}", "ada one, lesson 2")])
    collect.collect(second, dest, LESSON2.assignment)
    assert collected(dest)[f"ada_1001/{LESSON2.assignment}/{LESSON2.notebook}"] == "ada one, lesson 2"
    assert not (dest / "ada").exists()

    # a fresh folder: a lone ada is 'ada'; a second user of that login, later, gets an id of their own
    alone = tmp_path / "fresh" / "submitted"
    collect.collect(download(tmp_path / "three.zip", [(f"ada_1001_2001_{NB}", "ada one")]), alone, A)
    later = download(
        tmp_path / "four.zip",
        [(f"ada_1001_2011_{LESSON2.notebook}", "ada one, 2"), (f"ada_1002_2012_{LESSON2.notebook}", "ada two, 2")],
    )
    got = collect.collect(later, alone, LESSON2.assignment)
    assert collected(alone) == {
        f"ada/{A}/{NB}": "ada one",
        f"ada/{LESSON2.assignment}/{LESSON2.notebook}": "ada one, 2",
        f"ada_1002/{LESSON2.assignment}/{LESSON2.notebook}": "ada two, 2",
    }
    assert any("1001" in n and "1002" in n for n in got.notes), got.notes


# ---------------------------------------------------------------- names and duplicate entries


def test_bidi_and_control_characters_in_names_are_escaped_in_every_note(template, tmp_path):
    """A right-to-left override (and other bidi, zero-width, C1 and separator characters) in a handed-in file's
    name or a download's entry name is shown escaped, in the mirror's notes and the collector's."""
    names = DATA["names"]
    for name in names:
        shown = show(name)
        assert_printable([shown])
        assert shown != name and ("\\u" in shown or "\\x" in shown), shown
    course = fresh(template, tmp_path)
    handed = tmp_path / "handed_in"
    write(handed / "ada" / A / NB, own_notebook(course, "ada"))
    for name in names:
        write(handed / "ada" / A / name, "{}")
        write(handed / "ada" / name, "{}")
    write(handed / "bob" / A / names[1], own_notebook(course, "bob"))  # a renamed lesson notebook
    _changed, notes = handins.mirror(course, handed, "names")
    assert len(notes) >= len(names) + 1, notes
    assert "# bob's own work" in mirrored(course, "bob")
    assert_printable(notes + list(course.problems().values()))

    zipped = download(
        tmp_path / "names.zip",
        [(f"ada_1001_2001_{NB}", "{}")]
        + [(f"ada_1001_2001_{name}", "{}") for name in names]
        + [(f"ev{name}il_1002_2002_{NB}", "{}") for name in names]
        + [(f"ok_1003_2003_{NB}", "{}")],
    )
    got = collect.collect(zipped, tmp_path / "submitted", A)
    assert len(got.notes) >= 2 * len(names)
    assert_printable(got.notes + list(got.problems.values()))


def test_a_zip_with_one_entry_name_twice_says_which_was_kept(tmp_path):
    """Two entries named alike (the LMS never writes that): one note names the entry, how many there are and
    which one was kept (the last in the download); the other learners are unaffected."""
    name = f"ada_1001_2001_{NB}"
    with pytest.warns(UserWarning, match="Duplicate name"):
        path = download(
            tmp_path / "twice.zip",
            [
                (name, "first", (2025, 3, 14, 9, 0, 0)),
                (f"grace_1003_2003_{NB}", "grace"),
                (name, "second", (2025, 3, 14, 8, 0, 0)),
            ],
        )
    got = collect.collect(path, tmp_path / "submitted", A)
    assert collected(tmp_path / "submitted") == {f"ada/{A}/{NB}": "second", f"grace/{A}/{NB}": "grace"}
    about = [n for n in got.notes if name in n]
    assert len(about) == 1, got.notes
    assert "2 entries" in about[0] and "the last" in about[0] and "download the submissions again" in about[0], about
