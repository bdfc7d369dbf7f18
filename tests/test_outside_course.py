"""A course kept in a folder of its own, outside the kit's checkout: every command finds it through GRAPHKIT_COURSE.

The course is built once, in a temporary folder, from docs/authoring.md alone: its files as the page shows
them, then the page's `sh step` commands (make stubs, make notebooks, make docs). It must come out exactly as
the fixture course (tests/fixture_course/), so the page is the truth. Then make grade, the CLI, make check,
make stubs, make notebooks, make docs, make release and make gradescope run on it, each in a process of its own
started with GRAPHKIT_COURSE=<its path>. The make targets are run with the venv taken as it is (-o), so no test
ever sets it up again.
"""

import csv
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import zipfile

import pytest

from autograder.authoring.learner_files import SKELETON
from autograder.authoring.stubs import tasks_of
from autograder.course.lessons import discover
from autograder.course.paths import reference_modules
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

FIXTURE = ROOT / "tests" / "fixture_course"
PAGE = ROOT / "docs" / "authoring.md"
NOT_SOURCES = ("__pycache__", ".prepared.json", "dist", ".pytest_cache")  # what running a course leaves in it
# A file the page shows (```python file=checks.py), or commands it has the reader run (```sh step).
BLOCK = re.compile(
    r"^(?P<fence>`{3,})(?:\w+ file=(?P<file>\S+)|sh (?P<step>step))\n(?P<body>.*?)^(?P=fence)$",
    re.MULTILINE | re.DOTALL,
)


def files_of(folder):
    """{path relative to ``folder``: bytes} of a course's files, what running it leaves out."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not set(path.relative_to(folder).parts) & set(NOT_SOURCES)
    }


def walkthrough(folder, env):
    """Build the course the page describes in ``folder``: each file where the page shows it, each step when it says."""
    for block in BLOCK.finditer(PAGE.read_text(encoding="utf-8")):
        if block["file"]:
            path = folder / block["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block["body"], encoding="utf-8")
            continue
        for line in block["body"].splitlines():
            assert line.startswith("make "), f"{PAGE}: a step the test cannot run: {line}"
            done = make((folder, env), *line.split()[1:])
            assert done.returncode == 0, f"{PAGE}: `{line}` failed:\n{done.stdout}{done.stderr}"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """(the course's folder, the environment naming it): the course docs/authoring.md builds, far from the checkout.

    Built once for the module; what it held right after the build is kept as ``course.built`` would be, in BUILT."""
    folder = tmp_path_factory.mktemp("elsewhere") / "fixture_course"
    folder.mkdir()
    assert not folder.is_relative_to(ROOT)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env = dict(env, GRAPHKIT_COURSE=str(folder))
    walkthrough(folder, env)
    BUILT.update(files_of(folder))
    return folder, env


BUILT = {}  # the course's files as the walkthrough left them


def test_the_authoring_page_builds_the_fixture_course_from_nothing(course):
    """Every file of tests/fixture_course/, and no other, with the same bytes: the page's files and steps."""
    want = files_of(FIXTURE)
    assert sorted(BUILT) == sorted(want)
    assert [name for name in want if BUILT[name] != want[name]] == []


def make(course, *targets, **settings):
    folder, env = course
    line = [
        "make",
        "--no-print-directory",
        "-C",
        str(ROOT),
        "-o",
        ".venv/.ready",
        *targets,
        *(f"{key}={value}" for key, value in settings.items()),
    ]
    return subprocess.run(line, env=env, capture_output=True, text=True, timeout=600)


def cli(course, *args):
    folder, env = course
    return subprocess.run(
        [sys.executable, "-m", "autograder", *args],
        cwd=folder.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_cli_grades_a_handin_of_that_course_and_says_when_one_matches_no_lesson(course):
    folder, _env = course
    done = cli(course, "grade", str(folder / "solutions" / "words.py"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("words.py: 12/12"), done.stdout
    other = cli(course, "grade", str(ROOT / "solutions" / "graph.py"))
    assert other.returncode == 2, other.stdout + other.stderr
    assert "matches no lesson of the course 'fixture_course'" in other.stderr and "lesson1_words" in other.stderr


def test_the_cli_says_when_the_course_cannot_be_found(course, tmp_path):
    folder, env = course
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(folder / "solutions" / "words.py")],
        env=dict(env, GRAPHKIT_COURSE=str(tmp_path / "no_course")),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
    assert f"{tmp_path / 'no_course'}" in done.stderr and "__init__.py" in done.stderr


def test_make_stubs_and_make_notebooks_write_that_course_s_files(course):
    folder, _env = course
    stub, source = folder / "exercises" / "words.py", folder / "notebooks" / "source" / "lesson1_words" / "words.ipynb"
    wanted = {stub: stub.read_text(encoding="utf-8"), source: source.read_text(encoding="utf-8")}
    stub.unlink()
    source.unlink()
    for target in ("stubs", "notebooks"):
        done = make(course, target)
        assert done.returncode == 0, done.stdout + done.stderr
    assert {path: path.read_text(encoding="utf-8") for path in wanted} == wanted


def test_make_docs_writes_that_course_s_page(course):
    folder, _env = course
    page = folder / "docs" / "checks.md"
    written = page.read_text(encoding="utf-8")
    page.write_text(written.replace("buggy_longest_last", "(gone)"), encoding="utf-8")
    done = make(course, "docs")
    assert done.returncode == 0, done.stdout + done.stderr
    assert page.read_text(encoding="utf-8") == written
    assert (ROOT / "docs" / "checks.md").read_text(encoding="utf-8").count("buggy_longest_last") == 0


def test_make_docs_names_the_page_and_the_lines_to_add_when_they_are_missing(course):
    folder, _env = course
    page = folder / "docs" / "checks.md"
    written = page.read_text(encoding="utf-8")
    try:
        page.write_text(written.replace("<!-- end zoo -->", ""), encoding="utf-8")
        done = make(course, "docs")
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        assert f"{page}: no block 'zoo'" in done.stderr and "'<!-- end zoo -->'" in done.stderr
        page.unlink()
        done = make(course, "docs")
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        assert f"{page}: no such page" in done.stderr and "<!-- begin NAME" in done.stderr
    finally:
        page.write_text(written, encoding="utf-8")


def test_make_check_runs_that_course_s_public_tests(course):
    folder, _env = course
    stubbed = make(course, "check")
    assert stubbed.returncode != 0 and "check_words.py" in stubbed.stdout, stubbed.stdout
    stub = folder / "exercises" / "words.py"
    kept = stub.read_text(encoding="utf-8")
    try:
        shutil.copy(folder / "solutions" / "words.py", stub)
        solved = make(course, "check")
        assert solved.returncode == 0 and "3 passed" in solved.stdout, solved.stdout
    finally:
        stub.write_text(kept, encoding="utf-8")


def points(family=None):
    """The points of the fixture course's checks (of one family): the course built here has its files."""
    from tests.fixture_course import checks

    return sum(c.points for c in checks.all_checks() if family in (None, c.family))


def test_make_grade_grades_that_course_s_demo_cohort(course, tmp_path):
    """The pipeline (nbgrader's course folder, autograde, feedback, grades.csv) on the course's demo cohort."""
    done = make(course, "grade", OUT=tmp_path / "out", JOBS=2)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(tmp_path / "out" / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and {row["student_id"] for row in rows} == {"ada", "bob"}, rows
    scores = {row["student_id"]: float(row["score"]) for row in rows}
    answer = 1  # the lesson's one question, which bob answers wrong
    assert scores == {"ada": points() + answer, "bob": points() - points(family="longest_word")}
    assert (tmp_path / "out" / "feedback" / "ada" / "lesson1_words" / "words.html").is_file()


def test_make_grade_refuses_hand_ins_that_match_no_lesson_of_that_course(course, tmp_path):
    """The graph course's hand-ins, given to the fixture course: refused before anything is read, exit 2."""
    other = tmp_path / "submitted" / "ada" / "lesson1_graphs"
    other.mkdir(parents=True)
    (other / "computation_graphs.ipynb").write_text("{}", encoding="utf-8")
    done = make(course, "grade", OUT=tmp_path / "out", SUBMISSIONS=tmp_path / "submitted", JOBS=2)
    assert done.returncode != 0 and not (tmp_path / "out").exists(), done.stdout + done.stderr
    assert "match no lesson of the course 'fixture_course'" in done.stderr and "lesson1_words" in done.stderr


@pytest.fixture(scope="module")
def bundle(course):
    """The course's learner bundle, as `make release` writes it beside the course."""
    folder, _env = course
    done = make(course, "release")
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "dist" / "learner"


def test_make_release_writes_that_course_s_bundle_beside_it(course, bundle):
    folder, _env = course
    assert (bundle / "notebooks" / "lesson1_words" / "words.ipynb").is_file()
    assert (bundle / "exercises" / "words.py").read_text(encoding="utf-8") == (
        folder / "exercises" / "words.py"
    ).read_text(encoding="utf-8")
    assert not (bundle / "solutions").exists()


def words(text):
    return set(re.findall(r"\w+", text))


def test_its_bundle_s_readme_is_that_course_s_and_names_nothing_of_the_graph_course(course, bundle):
    """The course gives no learner files of its own: the kit's skeleton, with a README of its lessons and tasks."""
    folder, _env = course
    lessons = discover(folder / "notebooks")
    tasks = {task for path in (folder / "solutions").glob("*.py") for task in tasks_of(path.read_text("utf-8"))}
    readme = (bundle / "README.md").read_text(encoding="utf-8")
    assert lessons and tasks
    for lesson in lessons:
        assert f"`notebooks/{lesson.assignment}/{lesson.notebook}`" in readme, lesson
    assert {task for task in tasks if f"`{task}`" in readme} == tasks, readme
    graph_tasks = {
        task for path in reference_modules(ROOT / "solutions").values() for task in tasks_of(path.read_text())
    }
    graph_lessons = {lesson.assignment for lesson in discover(ROOT / "notebooks")}
    assert graph_tasks and graph_lessons
    skeleton = {path.relative_to(SKELETON).as_posix() for path in SKELETON.rglob("*") if path.is_file()}
    for name in [*skeleton, "README.md"]:
        text = (bundle / name).read_text(encoding="utf-8")
        assert not words(text) & (graph_tasks | graph_lessons), (name, words(text) & (graph_tasks | graph_lessons))
        assert "graph" not in text.lower(), name


def bundle_with_a_venv(bundle, tmp_path):
    """A copy of the bundle whose .venv is taken as set up: its python is this one, so make runs pytest at once."""
    copy = tmp_path / "learner"
    shutil.copytree(bundle, copy)
    (copy / ".venv" / "bin").mkdir(parents=True)
    python = copy / ".venv" / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    (copy / ".venv" / ".ready").touch()
    return copy


def learner_make(folder, *args):
    return subprocess.run(
        ["make", "--no-print-directory", *args], cwd=folder, capture_output=True, text=True, timeout=300
    )


def test_its_bundle_s_make_help_lists_its_tasks(course, bundle, tmp_path):
    folder, _env = course
    tasks = runpy.run_path(str(folder / "exercises" / "tasks.py"))["TASKS"]
    copy = bundle_with_a_venv(bundle, tmp_path)
    done = learner_make(copy, "help", f"PYTHON={sys.executable}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "make check [TASK=name]" in done.stdout
    listed = [line.split() for line in done.stdout.splitlines() if line.startswith("  ")]
    assert listed == [[task, f"exercises/{module}.py"] for task, module in tasks.items()], done.stdout


def test_its_bundle_s_make_check_runs_its_public_tests_on_the_learner_s_code(course, bundle, tmp_path):
    """Failing on the stubs, passing on the reference's code; TASK= selects the tests that name the task."""
    folder, _env = course
    copy = bundle_with_a_venv(bundle, tmp_path)
    stubbed = learner_make(copy, "check")
    assert stubbed.returncode != 0 and "3 failed" in stubbed.stdout, stubbed.stdout + stubbed.stderr
    shutil.copy(folder / "solutions" / "words.py", copy / "exercises" / "words.py")
    solved = learner_make(copy, "check")
    assert solved.returncode == 0 and "3 passed" in solved.stdout, solved.stdout + solved.stderr
    one = learner_make(copy, "check", "TASK=Tally")
    assert one.returncode == 0 and "1 passed, 2 deselected" in one.stdout, one.stdout + one.stderr


def test_make_gradescope_zips_that_course_beside_it_and_the_zip_grades_an_upload(course, bundle, tmp_path):
    """The zip holds the course below the folder it is imported from (none of its dist/, where the bundle is), goes
    to the course's own dist/gradescope, and its run_autograder grades an upload with that course's checks."""
    folder, env = course
    done = make(course, "gradescope")
    assert done.returncode == 0, done.stdout + done.stderr
    archive = folder / "dist" / "gradescope" / "lesson1_words.zip"
    assert f"wrote {archive}" in done.stdout, done.stdout
    root = tmp_path / "autograder"
    with zipfile.ZipFile(archive) as opened:
        names = set(opened.namelist())
        opened.extractall(root / "source")
    assert {"fixture_course/__init__.py", "fixture_course/solutions/words.py"} <= names
    assert not [name for name in names if name.startswith(("fixture_course/dist/", "graphcourse/", "solutions/"))]
    (root / "source" / "run_autograder").chmod(0o755)
    python = root / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    (root / "submission").mkdir()
    shutil.copy(folder / "solutions" / "words.py", root / "submission" / "words.py")
    env = {key: value for key, value in env.items() if key != "GRAPHKIT_COURSE"}  # the zip names its course
    ran = subprocess.run(
        [str(root / "source" / "run_autograder")],
        env=dict(env, AUTOGRADER_ROOT=str(root)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert (results["score"], results["extra_data"]["max_score"]) == (12, 12), ran.stdout + ran.stderr
