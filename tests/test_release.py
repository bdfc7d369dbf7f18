"""The learner bundle: built by `python -m autograder.authoring.release`, complete, deterministic, and free of anything
secret.

The canary tests copy the kit, plant a unique string in every file of the
autograder package (hidden checks and zoo included), in every solution region
of the reference and in every solution and hidden-test region of the lesson
files, then build the bundle and grade with that copy. The string must show up
nowhere a learner can see.
"""

import ast
import dataclasses
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder.authoring import learner_files, release
from autograder.authoring.learner_readme import readme
from autograder.authoring.release import ReleaseError
from autograder.course.lessons import LESSONS
from autograder.course.paths import reference_modules
from exercises.tasks import TASKS
from graphcourse import demo, zoo
from tests.conftest import REFERENCE_SOURCE, ROOT, STUB_SOURCE, prepared_course

CANARY = "GRAPHKIT-CANARY-d41c9e"
NOT_COPIED = (
    ".venv",
    ".git",
    "dist",
    "out",
    "__pycache__",
    ".hypothesis",
    ".pytest_cache",
    "*.egg-info",
    "gradebook.db",
    ".ipynb_checkpoints",
)

LEARNER_FILES = {
    ".github/workflows/public-tests.yml",
    ".gitignore",
    "Makefile",
    "README.md",
    "conftest.py",
    "lab-settings.json",
    "pytest.ini",
    "requirements.txt",
    "exercises/__init__.py",
    "exercises/bounds.py",
    "exercises/draw.py",
    "exercises/layout.py",
    "exercises/loader.py",
    "exercises/notebook.py",
    "exercises/pytest_impl.py",
    "exercises/strategies.py",
    "exercises/tasks.py",
    "exercises/walkthrough.py",
    "exercises/graph_widget.py",
    "exercises/graph_widget.js",
    "exercises/graph_widget.css",
    "exercises/widget_answers.py",
}
# The course's own files: a stub per lesson module, the public tests, a release notebook per lesson.
EXPECTED_FILES = (
    LEARNER_FILES
    | {f"exercises/{name}.py" for name in reference_modules()}
    | {f"exercises/tests/{path.name}" for path in (ROOT / "exercises" / "tests").glob("*.py")}
    | {f"notebooks/{lesson.assignment}/{lesson.notebook}" for lesson in LESSONS}
)

# Run in the bundle: pytest, then report whether the kit's private packages were imported and where exercises came from.
PUBLIC_RUN = """
import sys, pytest
code = pytest.main(sys.argv[1:])
print("PRIVATE", sorted(m for m in sys.modules if m.split(".")[0] in ("autograder", "solutions")))
print("EXERCISES", sys.modules["exercises"].__file__)
sys.exit(code)
"""


# ---------------------------------------------------------------- helpers


def assert_no_canary(path_or_text, canary=CANARY):
    """Fail if ``canary`` occurs in a text (str or bytes) or, for a Path, in the file or any file or name under it."""
    if isinstance(path_or_text, Path):
        paths = sorted(path_or_text.rglob("*")) if path_or_text.is_dir() else [path_or_text]
        for path in paths:
            assert canary not in str(path), f"{path}: the canary is in the file name"
            if path.is_file():
                data = path.read_bytes()
                at = data.find(canary.encode())
                assert at < 0, f"{path}: the canary leaked: ...{data[max(0, at - 120) : at + 80]!r}..."
        return
    text = path_or_text.decode("utf-8", "replace") if isinstance(path_or_text, bytes) else path_or_text
    at = text.find(canary)
    assert at < 0, f"the canary leaked: ...{text[max(0, at - 120) : at + 80]!r}..."


def copy_kit(dest):
    """A copy of the kit's tree without the venv, git data, build output and caches."""
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*NOT_COPIED))
    return dest


def after_begin_markers(text, markers, line):
    """``text`` with ``line`` inserted after every line holding one of ``markers``, at that line's indent."""
    out = []
    for old in text.splitlines(keepends=True):
        out.append(old)
        if old.strip() in markers:
            out.append(old[: len(old) - len(old.lstrip())] + line + "\n")
    return "".join(out)


CANARY_COHORT = tuple(
    dataclasses.replace(learner, through=min(learner.through, 3))  # lessons 1 and 2, and lesson 3's Var
    for learner in demo.COHORT
    if learner.student_id in ("barbara", "dennis", "edsger", "frances")
)


# The kit's notebook reader is public by design: make stubs copies it, as it is, to exercises/notebook.py.
PUBLIC_READER = Path("autograder") / "course" / "cells.py"
# The learner files are public by design too: the kit's skeleton and the graph course's own.
COURSE_LEARNER = learner_files.course_learner_folder(ROOT)
PUBLIC_FOLDERS = (learner_files.SKELETON.relative_to(ROOT), COURSE_LEARNER.relative_to(ROOT))


def plant_canaries(copy):
    """Plant the canary in the copy; return {planted file: how many times}."""
    planted = {}
    for path in sorted([*(copy / "autograder").rglob("*.py"), *(copy / "graphcourse").rglob("*.py")]):
        if path == copy / PUBLIC_READER or any(path.is_relative_to(copy / folder) for folder in PUBLIC_FOLDERS):
            continue
        kind = {"checks": "checks", "zoo": "zoo"}.get(path.parent.name, "autograder")
        path.write_text(path.read_text(encoding="utf-8") + f"\n# {CANARY}-{kind}\n", encoding="utf-8")
        planted[path] = 1
    sources = [(copy / "solutions" / "graph.py", "solution")]
    sources += [(lesson.source_path(copy / "notebooks"), "lesson") for lesson in LESSONS]
    for path, kind in sources:
        text = path.read_text(encoding="utf-8")
        new = after_begin_markers(text, {"### BEGIN SOLUTION"}, f"# {CANARY}-{kind}")
        path.write_text(new, encoding="utf-8")
        planted[path] = new.count(CANARY)
    return planted


def copy_env(copy):
    """Environment for a child Python that must import the copy's packages, not the kit's."""
    return dict(os.environ, PYTHONPATH=str(copy))


def run(args, cwd, env=None, timeout=300):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def build(root, out, env=None):
    return run(
        [sys.executable, "-m", "autograder.authoring.release", "--root", str(root), "--out", str(out)], root, env
    )


def files_of(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def course_state():
    """{path: bytes} of every file under the kit's notebooks/ folder."""
    return files_of(ROOT / "notebooks")


def pytest_counts(output):
    """{'passed': n, 'failed': n, ...} from pytest's last summary line."""
    return {
        word: int(n)
        for n, word in re.findall(r"(\d+) (passed|failed|not written|skipped|error|errors|deselected)", output)
    }


# ---------------------------------------------------------------- the slow runs, all started at once


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Build the bundle from the kit and from a canaried copy, and grade a stub and a buggy module with the copy."""
    tmp = tmp_path_factory.mktemp("release")
    course_before = course_state()
    copy = copy_kit(tmp / "kit")
    planted = plant_canaries(copy)
    env = copy_env(copy)
    regenerated = run([sys.executable, "-m", "autograder.authoring.lessons"], copy, env)
    assert regenerated.returncode == 0, regenerated.stderr
    stub = tmp / "stub" / "graph.py"
    buggy = tmp / "buggy" / "graph.py"
    entry = next(e for e in zoo.entries() if e.name == "buggy_assign_fan_out")
    for path, text in ((stub, STUB_SOURCE), (buggy, zoo.source(entry, REFERENCE_SOURCE, STUB_SOURCE))):
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
    # Four demo learners, built by the kit itself, so their own code carries no canary: any canary
    # in what the copy's batch writes came from the hidden files. Between them they fail checks in
    # the first two lessons' functions and in a later lesson's (edsger hands in lesson 3 too), answer
    # wrongly, hand in an unreadable notebook and correct ones.
    handed_in = tmp / "demo_in"
    course = prepared_course(tmp / "demo_course", pictures=False)  # its release and due dates: no feedback here
    demo.build(handed_in, tmp / "demo_course" / "release", course.due_dates(), cohort=CANARY_COHORT)
    grade = [sys.executable, "-m", "autograder", "grade", "--json"]
    jobs = {
        "kit": lambda: build(ROOT, tmp / "from_kit"),
        "canary": lambda: build(copy, tmp / "from_copy", env),
        "stub": lambda: run([*grade, str(stub)], copy, env),
        "buggy": lambda: run([*grade, str(buggy)], copy, env),
        "batch": lambda: run(
            [
                sys.executable,
                "-m",
                "autograder.pipeline.batch",
                "--out",
                str(tmp / "batch_out"),
                "--submissions",
                str(handed_in),
            ],
            copy,
            env,
            600,
        ),
        "which": lambda: run(
            [
                sys.executable,
                "-c",
                "import autograder, solutions; print(autograder.__file__); print(solutions.__file__)",
            ],
            copy,
            env,
        ),
    }
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        done = {name: future.result() for name, future in futures.items()}
    return dict(
        done,
        course_before=course_before,
        copy=copy,
        planted=planted,
        bundle=tmp / "from_kit",
        canary_bundle=tmp / "from_copy",
        tmp=tmp,
    )


@pytest.fixture(scope="module")
def bundle(runs):
    assert runs["kit"].returncode == 0, runs["kit"].stderr
    return runs["bundle"]


@pytest.fixture(scope="module")
def public_runs(bundle, tmp_path_factory):
    """The bundle's own public tests, in a copy of it: on the references (as a folder of modules) and on the stub."""
    tmp = tmp_path_factory.mktemp("learner")
    learner = tmp / "learner"
    shutil.copytree(bundle, learner)
    reference = tmp / "mine"  # a learner's folder of finished modules: every lesson's reference
    reference.mkdir()
    for name, path in reference_modules().items():
        shutil.copy(path, reference / f"{name}.py")
    common = [sys.executable, "-c", PUBLIC_RUN, "-q", "-p", "no:cacheprovider"]
    untouched = tmp / "untouched"  # a fresh bundle whose .venv is set up: `make check` runs pytest at once
    shutil.copytree(bundle, untouched)
    (untouched / ".venv" / "bin").mkdir(parents=True)
    python = untouched / ".venv" / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    (untouched / ".venv" / ".ready").touch()
    with ThreadPoolExecutor(max_workers=2) as pool:
        solved = pool.submit(run, [*common, f"--impl={reference}"], learner)
        stubbed = pool.submit(run, [*common, "-m", "task_inputs_of"], learner)
        checked = pool.submit(
            subprocess.run,
            ["make", "--no-print-directory", "check"],
            cwd=untouched,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=300,
            env=dict(os.environ, COLUMNS="100"),
        )  # the terminal's width: a narrow 100 columns
        return {"learner": learner, "solved": solved.result(), "stub": stubbed.result(), "make check": checked.result()}


# ---------------------------------------------------------------- the bundle


@pytest.mark.slow
def test_bundle_holds_exactly_the_learner_files(bundle):
    """The bundle is the release notebooks, stub, loader, public tests and learner files, and nothing else."""
    assert set(files_of(bundle)) == EXPECTED_FILES


@pytest.mark.slow
def test_build_is_deterministic_and_ignores_secret_content(runs, bundle):
    """Built from the kit and from a copy whose secret parts all changed, the bundles are byte-for-byte equal."""
    assert runs["canary"].returncode == 0, runs["canary"].stderr
    assert files_of(runs["canary_bundle"]) == files_of(bundle)


@pytest.mark.slow
def test_stub_and_public_files_are_the_kit_ones(bundle):
    """The bundle's stub is generated from the reference and equals the committed stub; public files are verbatim."""
    assert (bundle / "exercises" / "graph.py").read_text(encoding="utf-8") == STUB_SOURCE
    assert STUB_SOURCE == (ROOT / "exercises" / "graph.py").read_text(encoding="utf-8")
    for name in EXPECTED_FILES:
        if name.startswith("exercises/") and name != "exercises/graph.py":
            assert (bundle / name).read_bytes() == (ROOT / name).read_bytes(), name


@pytest.mark.slow
def test_build_leaves_the_course_folder_alone(runs, bundle):
    """nbgrader runs in a temporary copy: building from the kit adds and changes nothing under notebooks/."""
    assert course_state() == runs["course_before"]


@pytest.mark.slow
def test_bundle_notebooks_are_the_course_release(runs, bundle):
    """The bundle's release notebooks (nbgrader's command, no gradebook) are, byte for byte, those a grading folder
    releases (nbgrader's API, gradebook included): the ones tests/test_notebooks.py checks cell by cell."""
    release = runs["tmp"] / "demo_course" / "release"
    for lesson in LESSONS:
        name = f"{lesson.assignment}/{lesson.notebook}"
        assert (bundle / "notebooks" / name).read_bytes() == (release / name).read_bytes(), name


@pytest.mark.slow
def test_release_notebooks_are_stubbed(bundle):
    """Each release notebook keeps nbgrader's stubs and none of its markers."""
    for name in EXPECTED_FILES:
        if name.endswith(".ipynb"):
            text = (bundle / name).read_text(encoding="utf-8")
            assert 'raise NotImplementedError(\\"task ' in text and "YOUR CODE HERE" in text, name  # JSON-escaped
            for marker in release.MARKERS:
                assert marker not in text, f"{name} contains {marker!r}"


# ---------------------------------------------------------------- canaries


@pytest.mark.slow
def test_canaries_were_planted_and_reached_the_copy(runs):
    """Every autograder file (the public notebook reader aside), solution region and lesson region holds the canary,
    and the copy's code is the one run."""
    copy, planted = runs["copy"], runs["planted"]
    assert planted[copy / "solutions" / "graph.py"] == REFERENCE_SOURCE.count("### BEGIN SOLUTION") >= 4
    assert all(count >= 1 for count in planted.values())
    for folder in ("checks", "zoo"):
        files = set((copy / "graphcourse" / folder).glob("*.py"))
        assert len(files) > 5 and files <= set(planted), folder
    for path in (copy / "notebooks" / "source").rglob("*.ipynb"):
        assert CANARY in path.read_text(encoding="utf-8"), f"{path}: regenerated notebook lacks the canary"
    which = runs["which"]
    assert which.returncode == 0, which.stderr
    assert all(line.startswith(str(copy)) for line in which.stdout.split()), which.stdout


@pytest.mark.slow
def test_no_canary_in_the_bundle(runs):
    """No file of the bundle built from the canaried copy contains the canary."""
    assert runs["canary"].returncode == 0, runs["canary"].stderr
    assert_no_canary(runs["canary_bundle"])
    assert_no_canary(runs["canary"].stdout + runs["canary"].stderr)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["stub", "buggy"])
def test_no_canary_in_results_json(runs, which):
    """Grading a stub and a buggy module with the canaried copy prints results JSON without the canary."""
    import json

    graded = runs[which]
    assert graded.returncode == 0, graded.stderr
    result = json.loads(graded.stdout)
    assert_no_canary(graded.stdout + graded.stderr)
    if which == "stub":
        assert result["score"] == 0
    else:
        assert 0 < result["score"] < result["extra_data"]["max_score"]
        assert any(t["status"] == "failed" for t in result["tests"])


@pytest.mark.slow
def test_no_canary_in_batch_feedback_results_or_report(runs):
    """The canaried copy's batch, grading the demo cohort, writes feedback HTML, results JSON and reports without the
    canary."""
    graded = runs["batch"]
    assert graded.returncode == 0, graded.stderr[-3000:]
    out = runs["tmp"] / "batch_out"
    feedback = sorted((out / "feedback").rglob("*.html"))
    assert len(feedback) == sum(len(learner.handed_in()) for learner in CANARY_COHORT) and any(
        "likely misconception" in p.read_text(encoding="utf-8") for p in feedback
    )
    for folder in ("feedback", "results"):
        assert_no_canary(out / folder)
    for name in ("cohort_report.html", "checks.csv", "grades.csv"):
        assert_no_canary((out / name).read_text(encoding="utf-8"))
    assert_no_canary(graded.stdout + graded.stderr)


# ---------------------------------------------------------------- the bundle on its own


@pytest.mark.slow
def test_bundle_public_tests_pass_on_the_reference_without_the_kit(public_runs):
    """In the bundle, every public test passes on a correct file, and no private package is imported."""
    solved = public_runs["solved"]
    counts = pytest_counts(solved.stdout)
    assert solved.returncode == 0 and counts.get("passed", 0) >= 25, solved.stdout[-3000:]
    assert "PRIVATE []" in solved.stdout
    assert f"EXERCISES {public_runs['learner']}" in solved.stdout


@pytest.mark.slow
def test_bundle_stub_fails_its_task_tests(public_runs):
    """In the bundle, `-m task_inputs_of` selects only that task's tests, and they all fail on the stub."""
    stub = public_runs["stub"]
    counts = pytest_counts(stub.stdout)
    assert stub.returncode == 1, "a task not written yet fails the run"
    assert counts.get("not written", 0) >= 3 and counts.get("deselected", 0) > 0, stub.stdout[-3000:]
    assert not counts.get("passed") and not counts.get("failed") and "PRIVATE []" in stub.stdout


@pytest.mark.slow
def test_an_untouched_make_check_ends_with_the_summary_and_the_next_step(public_runs):
    """The learner's last screen (24 lines) of `make check` on the untouched bundle: every task, once, and what to
    do. Every public test fails on the stubs, as not written yet: none passes by accident."""
    done = public_runs["make check"]
    assert done.returncode != 0, "a bundle whose tasks are not written yet fails make check"
    output = done.stdout
    ran = pytest_counts(public_runs["solved"].stdout)  # every public test, run on the references
    ran.pop("deselected", None)
    (summary,) = [line for line in output.splitlines()[-3:] if re.match(r"=+ .* in [\d.]+s", line)]
    assert pytest_counts(summary) == {"not written": sum(ran.values())}, summary
    last = output.splitlines()[-24:]
    assert any("public tests per task" in line for line in last), "\n".join(last)
    for task in TASKS:
        assert [line.split() for line in last if line.startswith(f"{task} ")] == [[task, "not", "written", "yet"]], task
        assert len(re.findall(rf"^{re.escape(task)} +not written yet$", output, re.MULTILINE)) == 1, task
    first = next(iter(TASKS))
    (step,) = [line for line in last if line.startswith("next: ")]
    assert f"write {first} in exercises/{TASKS[first]}.py" in step and f"make check TASK={first}" in step
    assert "Traceback" not in output and "FAILED" not in output and "Falsifying" not in output, output[-3000:]
    assert "Error" not in "\n".join(last[:-1]), "only make's own last line may say the run failed"


# ---------------------------------------------------------------- the builder's guards


def test_leak_scan_flags_markers_solution_lines_and_private_imports():
    """A marker, a line of a solution region (public tests included) or a private import is reported by file."""
    solution_line = 'raise ValueError(f"node {name!r} reads {i!r}, which has no value yet")'
    assert solution_line in release.solution_lines(ROOT)
    files = {
        "README.md": b"### BEGIN SOLUTION\n",
        "exercises/helper.py": b"from autograder import grader\n",
        "notes.py": f"x = 1\n                {solution_line}\n".encode(),
        "exercises/tests/test_x.py": b"values = dict(leaves)\n",
    }
    problems = release.leaks(files, ROOT)
    assert [p.split(":")[0] for p in problems] == [
        "README.md",
        "exercises/helper.py",
        "notes.py",
        "exercises/tests/test_x.py",
    ]
    assert release.leaks({"exercises/graph.py": STUB_SOURCE.encode()}, ROOT) == []


def test_write_refuses_folders_it_must_not_wipe(tmp_path):
    """The output may not be the kit, a folder holding it, a kit folder outside dist/, or a git checkout."""
    kit = tmp_path / "kit"
    (kit / "exercises").mkdir(parents=True)
    checkout = tmp_path / "checkout"
    (checkout / ".git").mkdir(parents=True)
    for out in (kit, tmp_path, kit / "exercises", checkout):
        with pytest.raises(ReleaseError, match="refusing"):
            release.write({"a.txt": b"a"}, out, kit)
    assert (kit / "exercises").is_dir() and (checkout / ".git").is_dir()


def test_write_replaces_the_output_exactly(tmp_path):
    """Writing a bundle removes files of an older one and leaves no partial folder behind."""
    kit = tmp_path / "kit"
    out = kit / "dist" / "learner"
    (out / "old").mkdir(parents=True)
    (out / "old" / "stale.txt").write_text("stale")
    release.write({"README.md": b"hi", "exercises/graph.py": b"x = 1\n"}, out, kit)
    assert files_of(out) == {"README.md": b"hi", "exercises/graph.py": b"x = 1\n"}
    assert sorted(p.name for p in out.parent.iterdir()) == ["learner"]


def test_stale_source_notebook_stops_the_build(tmp_path):
    """A source notebook that differs from the reference and lesson files stops the build, naming `make notebooks`."""
    kit = tmp_path / "kit"
    shutil.copytree(ROOT / "solutions", kit / "solutions")
    shutil.copytree(ROOT / "notebooks", kit / "notebooks", ignore=shutil.ignore_patterns(*NOT_COPIED))
    release.check_sources(kit)
    source = next((kit / "notebooks" / "source").rglob("*.ipynb"))
    source.write_text(source.read_text(encoding="utf-8").replace("Lesson", "Lecture"), encoding="utf-8")
    with pytest.raises(ReleaseError, match=rf"{source.name} is out of date.*make notebooks"):
        release.check_sources(kit)


# ---------------------------------------------------------------- the learner templates


def test_learner_conftest_uses_the_kits_plugin():
    """The learner conftest and the kit's load the same public plugin, so --impl and Hypothesis settings agree."""
    for path in (ROOT / "conftest.py", COURSE_LEARNER / "conftest.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        plugins = [n.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "pytest_plugins"]
        assert len(plugins) == 1 and ast.literal_eval(plugins[0]) == ["exercises.pytest_impl"], path
    for path in (COURSE_LEARNER / "conftest.py", learner_files.SKELETON / "conftest.py"):
        text = path.read_text(encoding="utf-8")
        assert not release.PRIVATE_IMPORT.search(text) and "solutions" not in text, path


def test_learner_pytest_config_and_requirements_match_the_kit():
    """pytest.ini registers the kit's task markers; every learner requirement is one of the kit's dependencies."""
    tomllib = pytest.importorskip("tomllib")
    kit = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    kit_markers = {m.split(":")[0] for m in kit["tool"]["pytest"]["ini_options"]["markers"] if m.startswith("task_")}
    ini = (COURSE_LEARNER / "pytest.ini").read_text(encoding="utf-8")
    assert set(re.findall(r"^\s+(task_\w+):", ini, re.MULTILINE)) == kit_markers
    assert "testpaths = exercises/tests" in ini and "--strict-markers" in ini
    wanted = [line.strip() for line in (COURSE_LEARNER / "requirements.txt").read_text().splitlines()]
    wanted = [line for line in wanted if line and not line.startswith("#")]
    assert {re.split(r"[<>=]", w)[0] for w in wanted} == {
        "pytest",
        "hypothesis",
        "nbformat",
        "jupyterlab",
        "nbgrader",
        "networkx",
        "matplotlib",
        "anywidget",
    }
    assert set(wanted) <= set(kit["project"]["dependencies"])
    generic = (learner_files.SKELETON / "requirements.txt").read_text(encoding="utf-8").splitlines()
    generic = {line.strip() for line in generic if line.strip() and not line.startswith("#")}
    assert generic <= set(wanted), "the kit's skeleton asks for what every course's bundle needs, and no more"


def test_public_workflow_runs_the_public_tests_on_every_push():
    """The workflow runs on push, on Python 3.11, installs the requirements and runs pytest exercises/tests."""
    import yaml  # jupyterlab brings PyYAML: a missing one must fail here, not skip

    flow = yaml.safe_load((learner_files.SKELETON / ".github" / "workflows" / "public-tests.yml").read_text())
    triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads a bare `on` key as True
    assert "push" in triggers
    (job,) = flow["jobs"].values()
    steps = job["steps"]
    assert any(s.get("with", {}).get("python-version") == "3.11" for s in steps)
    commands = [s["run"] for s in steps if "run" in s]
    assert any("pip install -r requirements.txt" in c for c in commands)
    assert any("pytest exercises/tests" in c for c in commands)


@pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")
def test_learner_makefile_check_selects_task_and_implementation(tmp_path):
    """`make check TASK=backward IMPL=notebooks` runs pytest on exercises/tests with -m task_backward
    --impl=notebooks; the kit's skeleton's Makefile selects a task alike."""
    for name, data in learner_files.learner_files(ROOT, ROOT / "solutions", ROOT / "notebooks").items():
        (tmp_path / "graph" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "graph" / name).write_bytes(data)
    dry = run(["make", "-n", "check", "TASK=backward", "IMPL=notebooks"], tmp_path / "graph")
    assert dry.returncode == 0, dry.stderr
    assert ".venv/bin/python -m pytest exercises/tests -m task_backward --impl=notebooks" in dry.stdout
    assert "pip install --quiet -r requirements.txt" in dry.stdout
    plain = run(["make", "-n", "check"], tmp_path / "graph")
    assert re.search(r"pytest exercises/tests\s*$", plain.stdout, re.MULTILINE), plain.stdout
    generic = run(["make", "-n", "check", "TASK=backward"], learner_files.SKELETON)
    assert ".venv/bin/python -m pytest exercises/tests -m task_backward" in generic.stdout, generic.stdout


def test_a_course_s_own_learner_file_wins_and_the_kit_gives_the_rest(tmp_path):
    """A course giving only a Makefile gets it, the kit's skeleton for every other file, and a README written
    from its lessons."""
    own = learner_files.course_learner_folder(tmp_path)
    own.mkdir(parents=True)
    (own / "Makefile").write_bytes(b"help:\n")
    files = learner_files.learner_files(tmp_path, ROOT / "solutions", ROOT / "notebooks")
    skeleton = learner_files.tree(learner_files.SKELETON)
    assert set(files) == set(skeleton) | {"README.md"}
    assert files["Makefile"] == b"help:\n"
    assert all(files[name] == data for name, data in skeleton.items() if name != "Makefile")
    assert files["README.md"] == readme(ROOT / "solutions", ROOT / "notebooks").encode()
    assert files["README.md"] != (COURSE_LEARNER / "README.md").read_bytes()
    assert set(learner_files.learner_files(ROOT, ROOT / "solutions", ROOT / "notebooks").values()) >= {
        path.read_bytes() for path in COURSE_LEARNER.rglob("*") if path.is_file()
    }, "the graph course's own files are all in its bundle"


# ---------------------------------------------------------------- the shared loader


def test_loader_reads_notebook_cells_skipping_test_cells_and_magics(tmp_path, capsys):
    """Code cells run in order; nbgrader test cells are skipped, magics commented out, a broken cell reported."""
    import json

    from exercises.loader import load_implementation

    def cell(source, **nbgrader):
        meta = {"nbgrader": nbgrader} if nbgrader else {}
        return {"cell_type": "code", "metadata": meta, "source": source, "outputs": [], "execution_count": None}

    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            cell("%matplotlib inline\nA = 1\n"),
            cell("assert False, 'test cell'\n", grade=True, solution=False),
            cell("raise RuntimeError('broken')\n", solution=True),
            cell("B = A + 1\n", solution=True),
            {"cell_type": "markdown", "metadata": {}, "source": "# not code"},
        ],
    }
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    module = load_implementation(str(path))
    assert (module.A, module.B) == (1, 2)
    assert "lesson.ipynb cell 3: RuntimeError: broken" in capsys.readouterr().out
    assert load_implementation(str(tmp_path)).B == 2  # a folder: its notebooks, then graph.py files
    with pytest.raises(FileNotFoundError, match="no such file"):
        load_implementation(str(tmp_path / "missing.py"))
    assert load_implementation("exercises").__name__ == "exercises.graph"
