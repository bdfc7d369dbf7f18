"""The Gradescope autograder zips (`make gradescope`): one per lesson, what each holds, and run_autograder in a root
laid out like /autograder.

The root is a temporary folder (AUTOGRADER_ROOT) holding what Gradescope makes:
source/ (the unpacked zip), submission/ (the learner's upload) and results/. For the
quick tests, root/venv/bin/python is a two-line script that starts this interpreter, which
has the kit's dependencies; run_autograder still imports the kit from source/, so the zip
must hold everything grading needs. Every lesson's zip is built once; the first lesson's is
the one run. The e2e test runs setup.sh for real: a new venv and an install of the unpacked kit.
"""

import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder import cli
from autograder.authoring import gradescope
from autograder.course.lessons import LESSONS
from autograder.grading import graded_tests, report
from autograder.grading.by_lesson import lesson_points
from tests.conftest import REFERENCE_SOURCE, ROOT, STUB_SOURCE

GRADESCOPE_TEST_KEYS = {"name", "score", "max_score", "status", "output"}
LESSON = LESSONS[0]  # the lesson whose zip the tests run: its functions are graph.py's evaluate, inputs_of, users_of
SCRIPTS = ("setup.sh", "run_autograder", gradescope.POINTS)  # the entries in which the lessons' zips differ


def total(lesson):
    """The lesson's points, from the course's grade cells."""
    return sum(lesson_points(lesson).values())


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Every lesson's zip, as make gradescope writes them (some 0.4 s each)."""
    out = tmp_path_factory.mktemp("gradescope")
    gradescope.build(ROOT, out)
    return out


@pytest.fixture(scope="module")
def archive(folder):
    return gradescope.zip_of(folder, LESSON)


def unpack(archive, root):
    """Lay ``root`` out as Gradescope's /autograder: source/ from the zip, empty submission/."""
    source = root / "source"
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(source)
        for info in opened.infolist():
            os.chmod(source / info.filename, (info.external_attr >> 16) & 0o777)
    (root / "submission").mkdir()
    return root


def borrowed_venv(root):
    """root/venv/bin/python: this interpreter, which has the kit's dependencies (setup.sh is the slow test's)."""
    python = root / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)


def run_autograder(root, timeout=600):
    """Run the unpacked run_autograder as Gradescope would (AUTOGRADER_ROOT moves /autograder); its results.json."""
    env = dict(os.environ, AUTOGRADER_ROOT=str(root))
    done = subprocess.run(
        [str(root / "source" / "run_autograder")],
        cwd=root,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=timeout,
    )
    assert done.returncode == 0, f"run_autograder exited {done.returncode}:\n{done.stdout}\n{done.stderr[-3000:]}"
    results = root / "results" / "results.json"
    assert results.is_file(), f"run_autograder wrote no results.json:\n{done.stderr[-3000:]}"
    return json.loads(results.read_text(encoding="utf-8"))


def assert_gradescope_schema(results):
    """The keys and types Gradescope reads from results.json, and no key it does not document (the kit's own are in
    extra_data)."""
    assert set(results) <= report.GRADESCOPE_KEYS, set(results) - report.GRADESCOPE_KEYS
    assert isinstance(results["score"], (int, float)) and isinstance(results["extra_data"]["max_score"], (int, float))
    assert results["extra_data"]["max_score"] > 0 and 0 <= results["score"] <= results["extra_data"]["max_score"]
    assert isinstance(results["tests"], list) and results["tests"], "results.json lists no tests"
    for test in results["tests"]:
        assert GRADESCOPE_TEST_KEYS <= set(test), f"a test lacks {GRADESCOPE_TEST_KEYS - set(test)}: {test}"
        assert set(test) <= report.GRADESCOPE_TEST_KEYS, set(test) - report.GRADESCOPE_TEST_KEYS
        assert isinstance(test["name"], str) and test["name"] and isinstance(test["output"], str)
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"], test
        assert test["status"] in ("passed", "failed"), test
        parts = graded_tests.parts_of(test)
        assert parts == test["extra_data"] and ("check" in parts) != ("answer" in parts), test


def submit(root, files):
    for name, text in files.items():
        path = root / "submission" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------- the zip


def test_zip_holds_the_scripts_and_the_kit_and_nothing_else(archive):
    """setup.sh and run_autograder at the top, executable; the kit's code and course; no bundle, build, venv or
    cache."""
    with zipfile.ZipFile(archive) as opened:
        infos = {info.filename: info for info in opened.infolist()}
    for script in ("setup.sh", "run_autograder"):
        assert script in infos, f"{script} is missing"
        assert (infos[script].external_attr >> 16) & stat.S_IXUSR, f"{script} is not executable"
    names = set(infos)
    for needed in (
        "pyproject.toml",
        "autograder/cli.py",
        "solutions/graph.py",
        "exercises/loader.py",
        "notebooks/nbgrader_config.py",
        "notebooks/lessons/lesson1_graphs.py",
        "notebooks/source/lesson1_graphs/computation_graphs.ipynb",
    ):
        assert needed in names, f"{needed} is missing from the zip"
    for name in names:
        top = name.split("/")[0]
        assert top not in ("dist", "out", ".venv", "learner", "tests", ".git", ".ci"), name
        assert "__pycache__" not in name and not name.endswith((".pyc", ".db")), name


def test_every_lesson_has_a_zip_that_states_its_total(folder):
    """One zip per lesson, named by its id: its run_autograder grades that lesson alone, and its GRADESCOPE.md states
    the lesson's total from the course's grade cells; the zips hold the same kit and differ in those two files alone."""
    kit = None
    for lesson in LESSONS:
        with zipfile.ZipFile(gradescope.zip_of(folder, lesson)) as opened:
            names = opened.namelist()
            points = opened.read(gradescope.POINTS).decode("utf-8")
            run = opened.read("run_autograder").decode("utf-8")
            files = {name: opened.read(name) for name in names if name not in SCRIPTS}
        assert f"**{lesson.assignment}: set the assignment's total to {total(lesson):g}**" in points, points
        assert f"`{lesson.notebook}`" in points
        (command,) = [line for line in run.splitlines() if "-m autograder grade" in line]
        assert f"--lesson {lesson.assignment} " in command, command
        assert kit is None or files == kit, f"{lesson.assignment}'s zip holds another kit"
        kit = files
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{lesson.assignment}.zip" for lesson in LESSONS)


def test_the_build_says_each_total_and_refuses_an_unknown_lesson(capsys, monkeypatch, tmp_path):
    """make gradescope LESSON=id writes that lesson's zip alone, after the course's store, and says the total to set;
    LESSON=nope exits 2 listing the course's lessons, before anything is written."""
    asked = []
    monkeypatch.setattr(gradescope.subprocess, "run", lambda command, **_: asked.append(command))
    assert gradescope.main(["--lesson", "nope", "--out", str(tmp_path)]) == 2
    said = capsys.readouterr().err
    assert "'nope' is no lesson of the course" in said and all(lesson.assignment in said for lesson in LESSONS)
    assert asked == [] and list(tmp_path.iterdir()) == []
    assert gradescope.main(["--lesson", LESSON.assignment, "--out", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert [command[1:] for command in asked] == [["-m", "autograder.tools.prepare"]]
    assert [p.name for p in tmp_path.iterdir()] == [f"{LESSON.assignment}.zip"]
    assert f"set the assignment's total to {total(LESSON):g}\n" in said, said


def test_zip_is_the_same_bytes_every_build(tmp_path):
    """Two builds of the same kit give the same zip: fixed times, sorted entries. (The builds follow each other at
    once, so that no edit of the checkout falls between them.)"""
    first, again = tmp_path / "first", tmp_path / "again"
    for folder in (first, again):
        gradescope.build(ROOT, folder, [LESSON])
    assert gradescope.zip_of(again, LESSON).read_bytes() == gradescope.zip_of(first, LESSON).read_bytes()
    assert [p.name for p in again.iterdir()] == [f"{LESSON.assignment}.zip"]


def test_scripts_read_the_root_from_the_environment():
    """Both scripts default to /autograder and take AUTOGRADER_ROOT instead when it is set."""
    for script in gradescope.scripts(LESSON).values():
        assert script.startswith("#!/usr/bin/env bash\n")
        assert 'ROOT="${AUTOGRADER_ROOT:-/autograder}"' in script
    run = gradescope.RUN_AUTOGRADER
    assert '-m autograder grade "$ROOT/submission"{lesson} --output "$RESULTS"' in run
    assert "results/results.json" in run


def test_the_kit_writes_results_json_itself():
    """run_autograder hands results.json to the kit (--output, written in one step), never to a shell redirect,
    and asks for no weaker sandbox: Gradescope runs it as root, where the sandbox isolates fully."""
    commands = [line for line in gradescope.RUN_AUTOGRADER.splitlines() if "-m autograder grade" in line]
    assert len(commands) == 1 and ">" not in commands[0] and "--json" not in commands[0]
    assert "limits" not in gradescope.RUN_AUTOGRADER and "GRAPHKIT_SANDBOX" not in gradescope.RUN_AUTOGRADER


# ---------------------------------------------------------------- run_autograder


@pytest.fixture
def root(archive, tmp_path):
    unpacked = unpack(archive, tmp_path / "autograder")
    borrowed_venv(unpacked)
    return unpacked


def lesson_functions(lesson):
    """The functions a lesson grades, and what their hidden checks are worth."""
    from autograder.course.lessons import function_of

    functions = {function_of(grade_id) for grade_id in lesson_points(lesson)} - {""}
    return functions, sum(most for grade_id, most in lesson_points(lesson).items() if function_of(grade_id))


@pytest.mark.slow
def test_reference_module_gets_the_lessons_hidden_checks(root):
    """An upload of the reference as graph.py earns the lesson's functions' hidden checks, and is out of those alone:
    the other lessons' functions in graph.py are not graded by this lesson's zip."""
    functions, most = lesson_functions(LESSON)
    submit(root, {"graph.py": REFERENCE_SOURCE})
    results = run_autograder(root)
    assert_gradescope_schema(results)
    assert results["score"] == results["extra_data"]["max_score"] == most, results["output"]
    assert all(test["status"] == "passed" for test in results["tests"])
    assert set(graded_tests.functions_of(results["tests"])) == functions
    assert results["output"].startswith(f"submission: {most:g}/{most:g}"), results["output"][:200]
    assert results["output"].splitlines()[1].startswith(f"out of {most:g} (100%): what this hand-in can earn: ")
    assert str(root) not in json.dumps(results), "the results show the grading machine's folders"
    assert results["extra_data"]["isolation"] == "full"


def wrong_notebook(folder):
    """The lesson's notebook with one function and one answer wrong: a copy of the course's, edited."""
    nb = json.loads(LESSON.notebook_path().read_text(encoding="utf-8"))
    solution = f"{sorted(lesson_functions(LESSON)[0])[0]}_solution"
    edited = []
    for cell in nb["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id == solution:
            source = "".join(cell["source"])
            cell["source"] = source[: source.index(":\n") + 2] + "    return None\n"  # its signature, a wrong body
            edited.append(grade_id)
        elif grade_id == "multiple_choice_solution":
            cell["source"] = 'CHOICE = "A"\n'
            edited.append(grade_id)
    assert len(edited) == 2, f"{LESSON.notebook} no longer has the cells this test edits: {edited}"
    path = folder / LESSON.notebook
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_lesson_upload_scores_as_the_cli_grades_the_lesson(root, tmp_path):
    """The lesson's notebook, correct, earns the lesson's total; with a wrong function and a wrong answer, what the CLI
    (as make grade grades it) gives the notebook; another lesson's notebook beside it is named and left out."""
    submit(root, {LESSON.notebook: LESSON.notebook_path().read_text(encoding="utf-8")})
    results = run_autograder(root)
    assert_gradescope_schema(results)
    assert results["score"] == results["extra_data"]["max_score"] == total(LESSON), results["output"][:300]

    wrong = wrong_notebook(tmp_path)
    expected, _, code, _ = cli.outcome(wrong)
    assert code == cli.EXIT_GRADED and 0 < expected["score"] < total(LESSON), expected["output"][:300]
    (root / "results" / "results.json").unlink()
    other = LESSONS[1]
    submit(
        root,
        {
            LESSON.notebook: wrong.read_text(encoding="utf-8"),
            other.notebook: other.notebook_path().read_text(encoding="utf-8"),
        },
    )
    results = run_autograder(root)
    assert_gradescope_schema(results)
    assert (results["score"], results["extra_data"]["max_score"]) == (expected["score"], total(LESSON))
    assert f"{other.notebook}: not graded here" in results["output"], results["output"]


@pytest.mark.slow
def test_stub_module_gets_nothing(root):
    """An upload of the untouched stub, as exercises/graph.py, scores 0 with failed tests that say why."""
    submit(root, {"exercises/graph.py": STUB_SOURCE})
    results = run_autograder(root)
    assert_gradescope_schema(results)
    assert results["score"] == 0
    failed = [test for test in results["tests"] if test["status"] == "failed"]
    assert failed and all(test["output"] for test in failed)


@pytest.mark.slow
def test_unreadable_upload_gets_zero_and_a_reason(root):
    """An upload with nothing to grade still leaves a results.json: worth 0, saying what to upload (the lesson's
    notebook)."""
    submit(root, {"notes.txt": "my answers are in my head\n"})
    results = run_autograder(root)
    assert results["score"] == 0 and results["tests"] == []
    assert "could not be graded" in results["output"] and f"no {LESSON.notebook} found" in results["output"]


def test_a_hostile_upload_gets_zero_and_the_file_and_fix(root):
    """graph.py nested too deeply for the grader's parser: results.json worth 0 that names the file and the fix, with
    no traceback and none of the grading machine's folders."""
    submit(root, {"exercises/graph.py": "x = " + "+".join(["1"] * 10_000) + "\n"})
    results = run_autograder(root)
    assert results["score"] == 0 and results["tests"] == []
    assert "graph.py" in results["output"] and "hand it in again" in results["output"], results["output"]
    text = json.dumps(results)
    assert "Traceback" not in text and str(root) not in text and str(ROOT) not in text


def test_a_kit_that_cannot_start_still_leaves_results(archive, tmp_path):
    """Should the venv's Python not even start, the upload still gets a results.json worth 0 that says so."""
    root = unpack(archive, tmp_path / "autograder")
    python = root / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    python.chmod(0o755)
    results = run_autograder(root)
    assert results["score"] == 0 and "could not start" in results["output"] and "exit status 1" in results["output"]


@pytest.mark.slow
def test_run_autograder_grades_the_zips_code_not_the_checkouts(root):
    """With source/ as the working folder, `python -m autograder` imports the unpacked kit."""
    done = subprocess.run(
        [str(root / "venv" / "bin" / "python"), "-c", "import autograder; print(autograder.__file__)"],
        cwd=root / "source",
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=60,
    )
    assert done.stdout.strip().startswith(str(root / "source")), done.stdout + done.stderr


@pytest.mark.e2e  # a real install, as Gradescope's image runs it: with the browser tests, under make e2e
def test_setup_sh_installs_the_kit_and_run_autograder_grades_with_it(archive, tmp_path):
    """setup.sh makes root/venv and installs the unpacked kit; run_autograder then grades the reference fully."""
    root = unpack(archive, tmp_path / "autograder")
    env = dict(os.environ, AUTOGRADER_ROOT=str(root))
    setup = subprocess.run(
        [str(root / "source" / "setup.sh")],
        cwd=root / "source",
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=900,
    )
    assert setup.returncode == 0, f"setup.sh exited {setup.returncode}:\n{setup.stdout[-4000:]}"
    assert (root / "venv" / "bin" / "python").is_file()
    assert "setup.sh: set up in " in setup.stdout, setup.stdout[-2000:]
    submit(root, {"graph.py": REFERENCE_SOURCE})
    results = run_autograder(root)
    assert_gradescope_schema(results)
    assert results["score"] == results["extra_data"]["max_score"], results["output"]


# ---------------------------------------------------------------- the points, the visibility, setup.sh's report


def test_zip_documents_the_point_total_to_configure(archive):
    """GRADESCOPE.md, at the top of the zip, gives the lesson's total (to set for the assignment) and what its module
    alone can earn, and says that every test is visible when the course config sets no visibility."""
    with zipfile.ZipFile(archive) as opened:
        text = opened.read(gradescope.POINTS).decode("utf-8")
    functions, most = lesson_functions(LESSON)
    assert f"set the assignment's total to {total(LESSON):g}" in text
    assert f"the hidden checks of {', '.join(sorted(functions))} only\n({most:g} points)" in text, text
    assert "Every test is visible" in text
    assert gradescope.points_text(LESSON) == text


def write_config(folder, line):
    (folder / "notebooks").mkdir(parents=True)
    (folder / "notebooks" / "nbgrader_config.py").write_text(f"c = get_config()\n{line}\n", encoding="utf-8")
    return folder


def test_visibility_comes_from_the_course_config(tmp_path):
    """c.GradescopeResults.visibility in the course config goes into run_autograder as --visibility and into
    GRADESCOPE.md; the committed config sets none, so run_autograder passes none (every test visible, as before)."""
    root = write_config(
        tmp_path, 'c.GradescopeResults.visibility = {"property": "after_due_date", "deep_graph": "hidden"}'
    )
    shown = gradescope.course_visibility(root)
    assert shown == {"property": "after_due_date", "deep_graph": "hidden"}
    run = gradescope.scripts(LESSON, shown)["run_autograder"]
    (command,) = [line for line in run.splitlines() if "-m autograder grade" in line]
    assert command.endswith('--output "$RESULTS" --visibility deep_graph=hidden --visibility property=after_due_date')
    assert "- `property`: after_due_date" in gradescope.points_text(LESSON, shown)
    assert gradescope.course_visibility(ROOT) == {}
    assert "--visibility" not in gradescope.scripts(LESSON, gradescope.course_visibility(ROOT))["run_autograder"]


@pytest.mark.parametrize(
    "line, said",
    [
        ('c.GradescopeResults.visibility = {"nope": "hidden"}', "no check family"),
        ('c.GradescopeResults.visibility = {"property": "later"}', "later"),
    ],
)
def test_a_wrong_visibility_stops_the_build_naming_the_config(tmp_path, line, said):
    root = write_config(tmp_path, line)
    with pytest.raises(gradescope.GradescopeError, match=said) as caught:
        gradescope.course_visibility(root)
    assert str(root / "notebooks" / "nbgrader_config.py") in str(caught.value)


def test_setup_sh_reports_on_the_unpacked_kit_not_the_working_folder(root, tmp_path):
    """setup.sh's report (after its pip install) is the sandbox report of the kit in source/, wherever setup.sh is run
    from: a folder holding another `autograder` package is not the one reported on; then the points to configure."""
    lines = gradescope.SETUP_SH.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# For the build log"))
    head = [line for line in lines[:start] if line.startswith(("#!", "set ", "ROOT=", "SOURCE="))]
    decoy = tmp_path / "elsewhere"
    (decoy / "autograder").mkdir(parents=True)
    (decoy / "autograder" / "__init__.py").write_text("", encoding="utf-8")
    (decoy / "autograder" / "__main__.py").write_text('print("the kit of the working folder")\n', encoding="utf-8")
    done = subprocess.run(
        ["bash", "-c", "\n".join(head + lines[start:])],
        cwd=decoy,
        text=True,
        timeout=300,
        env=dict(os.environ, AUTOGRADER_ROOT=str(root)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert done.returncode == 0, done.stdout
    assert "the kit of the working folder" not in done.stdout
    assert f"sandbox report for the kit in {root / 'source'}:" in done.stdout and "sandbox level:" in done.stdout
    assert "# Configuring the Gradescope assignment" in done.stdout


def test_setup_sh_installs_with_uv_and_falls_back_to_pip(tmp_path):
    """setup.sh installs the kit with uv; where uv cannot, with pip, saying so; and says how long it took. The venv's
    Python is a script that logs what it is asked and fails whatever uv is asked, so nothing is downloaded."""
    log = tmp_path / "asked.log"
    fake = tmp_path / "bin"
    fake.mkdir()
    venv_python = f'#!/bin/sh\necho "$*" >> "{log}"\n[ "$2" != uv ]\n'
    (fake / "python3").write_text(  # passes setup.sh's version check, and `-m venv DIR` makes DIR/bin/python
        f'#!/bin/sh\nif [ "$1" = -m ] && [ "$2" = venv ]; then mkdir -p "$3/bin"\n'
        f'cat > "$3/bin/python" <<\'EOF\'\n{venv_python}EOF\nchmod +x "$3/bin/python"; fi\n',
        encoding="utf-8",
    )
    (fake / "python3").chmod(0o755)
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)
    (root / "source" / "setup.sh").write_text(gradescope.scripts(LESSON)["setup.sh"], encoding="utf-8")
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), PATH=f"{fake}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(
        ["bash", str(root / "source" / "setup.sh")],
        env=env,
        text=True,
        timeout=60,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    asked = log.read_text(encoding="utf-8").splitlines()
    source = root / "source"
    installs = [line for line in asked if f"--editable {source}" in line]
    assert installs == [
        f"-m uv pip install --quiet --python {root}/venv/bin/python --editable {source}",
        f"-m pip install --quiet --editable {source}",
    ], asked
    assert "uv could not install the kit: pip does (slower)" in done.stderr
    assert asked.index(installs[1]) < next(i for i, line in enumerate(asked) if "autograder.tools.prepare" in line)
    assert done.stdout.rstrip().splitlines()[-1].startswith("setup.sh: set up in "), done.stdout


# ---------------------------------------------------------------- another course, under an isolated interpreter


@pytest.mark.slow
def test_the_fixture_courses_zip_grades_under_an_isolated_interpreter(tmp_path):
    """The fixture course's lesson zip grades an upload with `python -I` (no working folder, no PYTHON* variables on
    the path) whose only path to the kit is the unpacked zip, as setup.sh's install gives it: nothing of the
    checkout's (its graph course, its exercises/) is importable, so the zip must carry all that grading imports."""
    import importlib
    import sysconfig

    course = "tests.fixture_course"
    env = {key: value for key, value in os.environ.items() if key != "GRAPHKIT_COURSE"}
    built = tmp_path / "zips"
    subprocess.run(
        [
            sys.executable,
            "-c",
            f"from autograder.authoring import gradescope; gradescope.build({str(ROOT)!r}, {str(built)!r})",
        ],
        env=dict(env, GRAPHKIT_COURSE=course),
        cwd=ROOT,
        check=True,
        timeout=300,
        capture_output=True,
    )
    (archive,) = built.iterdir()
    with zipfile.ZipFile(archive) as opened:
        names = set(opened.namelist())
    # the zip of its one lesson, carrying the course and nothing of the graph course
    assert archive.name == "lesson1_words.zip"
    assert "tests/fixture_course/solutions/words.py" in names and not any(n.startswith("graphcourse/") for n in names)
    root = unpack(archive, tmp_path / "autograder")
    isolated = (
        tmp_path / "isolated"
    )  # a venv whose path holds this venv's packages (the kit's dependencies) and source/
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(isolated)], check=True, timeout=120)
    site = subprocess.run(
        [str(isolated / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        text=True,
        capture_output=True,
    ).stdout.strip()
    (Path(site) / "kit.pth").write_text(f"{sysconfig.get_path('purelib')}\n{root / 'source'}\n", encoding="utf-8")
    python = root / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec "{isolated / "bin" / "python"}" -I "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    seen = subprocess.run(
        [
            str(python),
            "-c",
            "import sys, autograder; print(autograder.__file__); "
            "print(any(p.rstrip('/') == sys.argv[1] for p in sys.path))",
            str(ROOT),
        ],
        cwd=ROOT,
        text=True,
        capture_output=True,
        check=True,
    ).stdout.split()
    assert seen == [str(root / "source" / "autograder" / "__init__.py"), "False"], seen

    zoo = importlib.import_module(f"{course}.zoo")
    checks = importlib.import_module(f"{course}.checks").all_checks()
    entry = next(e for e in zoo.entries() if e.fails)
    submit(root, {"words.py": entry.source()})
    results = run_autograder(root)
    most = sum(c.points for c in checks)
    lost = sum(c.points for c in checks if c.family in entry.fails)
    assert (results["score"], results["extra_data"]["max_score"]) == (most - lost, most), results["output"]


# ---------------------------------------------------------------- the CLI's --lesson


def test_the_cli_refuses_a_lesson_the_course_lacks(capsys, tmp_path):
    """grade --lesson with an id that is no lesson of the course: exit 2, listing the course's lessons."""
    with pytest.raises(SystemExit) as stopped:
        cli.main(["grade", str(tmp_path), "--lesson", "lesson0_nope"])
    said = capsys.readouterr().err
    assert stopped.value.code == cli.EXIT_CANNOT_GRADE
    assert "'lesson0_nope' is no lesson of the course" in said and all(lesson.assignment in said for lesson in LESSONS)


def test_another_lessons_notebook_is_named_and_not_graded():
    """A notebook of another lesson, graded for this one, is worth 0 with a message naming the notebook to hand in."""
    other = LESSONS[1]
    results, _, code, said = cli.outcome(other.notebook_path(), lesson=LESSON.assignment)
    assert code == cli.EXIT_CANNOT_GRADE and results["score"] == 0
    assert f"this is the notebook of {other.assignment}; hand in {LESSON.notebook}" in said, said
