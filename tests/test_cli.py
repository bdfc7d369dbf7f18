"""`python -m autograder grade`: results JSON, readable summary and exit codes, run as a learner's grader would be.

Grading a whole submission takes seconds, so the four full grades start at
once in one fixture, two at a time, and the tests read their results.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from autograder import cli
from autograder.authoring.stubs import stub_source
from autograder.course.lessons import LESSONS, grade_cells, module_of
from autograder.grading import by_lesson, report
from autograder.grading.answers import answer_cells
from graphcourse import checks
from tests.conftest import REFERENCE, ROOT

SOURCE_NOTEBOOKS = [lesson.notebook_path() for lesson in LESSONS]
LESSON1_FUNCTIONS = {"evaluate", "inputs_of", "users_of"}  # defined by lesson 1's solution cells
# graph.py, the module these tests hand in, is graded on its own functions' checks (lessons 1 and 2).
CHECKS = {check.id: check for check in checks.all_checks() if module_of(check.function) == "graph"}


def grade(path, *options):
    """Run the CLI the way a grading job does: a fresh Python, output captured."""
    return subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(path), *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def check_id(test_name):
    """The id of the check a results-JSON test is named after (its name starts with it)."""
    matches = [cid for cid in CHECKS if test_name.startswith(cid)]
    assert matches, f"{test_name!r} does not start with a known check id"
    return max(matches, key=len)


def statuses(result, functions):
    """{check id: status} for the checks of ``functions`` in a results JSON (answer cells left out)."""
    found = {check_id(t["name"]): t["status"] for t in result["tests"] if not t["name"].endswith("(answer)")}
    return {cid: status for cid, status in found.items() if CHECKS[cid].function in functions}


@pytest.fixture(scope="module")
def cli_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def graded(cli_folder):
    """Grade a stub module, a correct module (its results also written by --output), lesson 1's notebook and a folder
    of both lesson notebooks."""
    tmp = cli_folder
    (tmp / "stub").mkdir()
    stub = tmp / "stub" / "graph.py"
    stub.write_text(stub_source(REFERENCE.read_text(encoding="utf-8")), encoding="utf-8")
    (tmp / "correct").mkdir()
    correct = shutil.copy(REFERENCE, tmp / "correct" / "graph.py")
    notebook = shutil.copy(SOURCE_NOTEBOOKS[0], tmp / SOURCE_NOTEBOOKS[0].name)
    (tmp / "both").mkdir()
    for path in SOURCE_NOTEBOOKS:
        shutil.copy(path, tmp / "both" / path.name)
    jobs = {
        "stub": (stub, "--json", "--fail-under", "0.5"),
        "correct": (correct, "--json", "--fail-under", "100", "--output", tmp / "out" / "correct.json"),
        "notebook": (
            notebook,
            "--json",
            "--visibility",
            "answers=after_published",
            "--visibility",
            "evaluate_values=hidden",
        ),
        "folder": (tmp / "both",),
    }
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(grade, *args) for name, args in jobs.items()}
        return {name: future.result() for name, future in futures.items()}


def results(run):
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


@pytest.mark.slow
def test_stub_scores_zero_with_every_check_failed(graded):
    """The stub module grades to 0 with every test failed (under --fail-under 0.5, so the CLI exits 1, results
    printed)."""
    run = graded["stub"]
    assert run.returncode == 1, run.stderr
    result = results(run)
    assert result["score"] == 0 and result["extra_data"]["max_score"] == sum(check.points for check in CHECKS.values())
    assert {t["status"] for t in result["tests"]} == {"failed"}


@pytest.mark.slow
def test_correct_module_scores_full_marks(graded):
    """A correct module (the reference, copied as graph.py) grades 100/100; --fail-under 100 still exits 0."""
    run = graded["correct"]
    assert run.returncode == 0, run.stderr
    result = results(run)
    assert (result["score"], result["extra_data"]["max_score"]) == (100, 100)
    assert {t["status"] for t in result["tests"]} == {"passed"}


@pytest.mark.slow
def test_notebook_is_graded_on_its_lessons_grade_cells(graded):
    """Lesson 1's notebook is graded as `make grade` grades it: its functions' checks, as for the module, and its
    answer cells, out of the lesson's points; backward, which lesson 1 does not ask for, is not graded."""
    notebook, module = results(graded["notebook"]), results(graded["correct"])
    mine = statuses(notebook, LESSON1_FUNCTIONS)
    assert mine and mine == statuses(module, LESSON1_FUNCTIONS)
    assert not statuses(notebook, {"backward"})
    lesson = {g: p for g, p in by_lesson.lesson_points(LESSONS[0]).items()}
    answers = [t for t in notebook["tests"] if t["name"].split(" ")[0] in lesson]
    assert len(answers) == len([c for c in grade_cells().values() if c.judge and c.assignment == LESSONS[0].assignment])
    assert (notebook["score"], notebook["extra_data"]["max_score"]) == (sum(lesson.values()), sum(lesson.values()))


@pytest.mark.slow
def test_fail_under_is_a_percentage_of_what_the_hand_in_can_earn(graded):
    """--fail-under takes a percentage: the stub's 0/100 is below 0.5 % (exit 1, results still printed, stderr says
    the score, its percentage and the threshold's); the reference's 100/100 meets 100 %."""
    run = graded["stub"]
    assert run.returncode == 1 and results(run)["tests"]
    assert "score 0/100 is 0.0% of what this hand-in can earn, below --fail-under 0.5%" in run.stderr, run.stderr
    assert graded["correct"].returncode == 0 and graded["correct"].stderr == ""


def in_process(capsys, *argv):
    """(exit code, stdout, stderr) of ``python -m autograder ARGV`` run as its main() in this process."""
    try:
        code = cli.main([*map(str, argv)])
    except SystemExit as stopped:  # argparse's refusals and --help
        code = stopped.code
    printed = capsys.readouterr()
    return code, printed.out, printed.err


@pytest.mark.parametrize("value", ["101", "-1", "half"])
def test_fail_under_refuses_what_is_no_percentage(value, capsys):
    """A --fail-under that is no percentage from 0 to 100 is refused before anything is graded, and the help says
    it takes a percentage."""
    code, _out, err = in_process(capsys, "grade", ROOT / "no-such-hand-in", "--fail-under", value)
    assert code == 2 and "--fail-under" in err and "percentage from 0 to 100" in err
    assert "no such file" not in err  # refused by the option, not by grading
    code, help_text, _err = in_process(capsys, "grade", "--help")
    assert code == 0 and "PERCENT percent" in " ".join(help_text.split())


@pytest.mark.slow
def test_each_output_says_what_the_hand_in_is_out_of(graded):
    """The second line of the summary and of the results' output: the hand-in is out of what it can earn. A module is
    out of its functions' hidden checks and says the lessons' answer cells are not in it; notebooks are out of
    theirs."""
    module = results(graded["correct"])["output"].splitlines()[1]
    assert module.startswith("out of 100 (100%): what this hand-in can earn: 100 for the hidden checks of ")
    answers = {
        lesson.assignment: sum(p for g, p in by_lesson.lesson_points(lesson).items() if not grade_cells()[g].function)
        for lesson in LESSONS
        if module_of(
            next(c.function for c in grade_cells().values() if c.assignment == lesson.assignment and c.function)
        )
        == "graph"
    }
    assert f"The answer cells of {', '.join(answers)} ({sum(answers.values()):g} points)" in module, module
    total = sum(sum(by_lesson.lesson_points(lesson).values()) for lesson in LESSONS)
    folder = graded["folder"].stdout.splitlines()[1]
    assert folder.startswith(f"out of {total:g} (100%): what this hand-in can earn: ") and "answer cells" not in folder
    for lesson in LESSONS:
        assert f"{lesson.notebook} {sum(by_lesson.lesson_points(lesson).values()):g}" in folder, lesson
    notebook = results(graded["notebook"])
    assert notebook["output"].splitlines()[1].startswith(f"out of {notebook['extra_data']['max_score']:g} (100%)")


@pytest.mark.slow
def test_visibility_is_set_per_check_family_and_group(graded):
    """--visibility answers=after_published evaluate_values=hidden: the answer cells and that family's checks get
    those visibilities, every other test stays visible; without it every test is visible."""
    notebook = results(graded["notebook"])
    seen = {t["name"]: t["visibility"] for t in notebook["tests"]}
    for name, level in seen.items():
        expected = (
            "after_published"
            if name.endswith("(answer)")
            else "hidden"
            if name.startswith("evaluate_values/")
            else "visible"
        )
        assert level == expected, (name, level)
    assert {"after_published", "hidden", "visible"} == set(seen.values())
    assert {t["visibility"] for t in results(graded["correct"])["tests"]} == {"visible"}


def test_visibility_names_a_family_or_a_group_and_a_gradescope_level():
    """A key that is no family nor group, or a level Gradescope does not know, is refused saying what there is."""
    from autograder.grading import visibility

    families = {check.family for check in checks.all_checks()}
    assert visibility.parse(["property=after_due_date", "deep_graph = hidden"], families) == {
        "property": "after_due_date",
        "deep_graph": "hidden",
    }
    for wrong, said in (
        ("nope=hidden", "no check family"),
        ("deep_graph=later", "visible, after_due_date"),
        ("deep_graph", "not KEY=LEVEL"),
    ):
        with pytest.raises(visibility.VisibilityError, match=said):
            visibility.parse([wrong], families)


def reworded_tests():
    """A property check's, a fixed check's and an answer cell's tests, each renamed to look like another's."""
    from autograder.grading import graded_tests

    every = checks.all_checks()
    property_families = {c.family for c in every if c.strategy is not None}
    assert property_families, "the course has property checks"
    drawn = next(c for c in every if c.family in property_families)
    fixed = next(c for c in every if c.family not in property_families and c.function != drawn.function)
    tests = [
        graded_tests.check_test(drawn, 1.0, 1.0, True, "passed"),
        graded_tests.check_test(fixed, 0.0, 2.0, False, "failed"),
        graded_tests.answer_test("ORDER", 1.0, 1.0, True, "correct"),
    ]
    names = ["ORDER (answer)", f"{drawn.id} ({drawn.function})", f"{fixed.id} ({fixed.function})"]
    return [dict(test, name=name) for test, name in zip(tests, names)], drawn, fixed, property_families


def test_visibility_follows_a_tests_parts_not_its_name():
    """A test's visibility comes from the parts it carries: renamed tests keep their family's and group's."""
    from autograder.grading import visibility

    tests, _drawn, fixed, property_families = reworded_tests()
    results_in = {"tests": tests}
    asked = {"property": "after_due_date", "answers": "hidden", fixed.family: "after_published"}
    shown = visibility.apply(results_in, asked, property_families)
    assert [t["visibility"] for t in shown["tests"]] == ["after_due_date", "after_published", "hidden"]
    assert [t["name"] for t in shown["tests"]] == [t["name"] for t in tests]
    assert visibility.apply(results_in, {}, property_families) is results_in
    unknown = visibility.apply({"tests": [{"name": "ORDER (answer)"}]}, asked, property_families)
    assert unknown["tests"][0]["visibility"] == "visible", "a test that carries no parts is not read by its name"


def test_the_scale_line_names_the_functions_a_tests_parts_name():
    """What a hand-in is out of names the functions of its checks' tests, read from their parts, not their names."""
    tests, drawn, fixed, _families = reworded_tests()
    part = by_lesson.Part("functions", "graph.py", {"score": 1.0, "max_score": 3.0, "tests": tests[:2]})
    line = cli.scale(by_lesson.CourseGrade("graph.py", parts=[part]))
    assert line.startswith(
        f"out of 3 (33%): what this hand-in can earn: 3 for the hidden checks of {drawn.function}, {fixed.function}"
    ), line


@pytest.mark.slow
def test_folder_of_lesson_notebooks_scores_full_marks(graded):
    """A folder holding both source notebooks grades to full marks: each lesson's points, and their total."""
    run = graded["folder"]
    assert run.returncode == 0, run.stderr
    total = sum(sum(by_lesson.lesson_points(lesson).values()) for lesson in LESSONS)
    assert re.search(rf"\b{total:g}/{total:g}\b", run.stdout.splitlines()[0]), run.stdout
    for lesson in LESSONS:
        most = sum(by_lesson.lesson_points(lesson).values())
        assert any(line.strip() == f"{lesson.notebook}: {most:g}/{most:g}" for line in run.stdout.splitlines()), lesson


@pytest.mark.slow
def test_summary_without_json_is_readable(graded):
    """Without --json the CLI prints a plain summary: the path and score, one line per function, no JSON."""
    out = graded["folder"].stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    first, *rest = out.splitlines()
    assert "both" in first  # the graded folder's name
    for function in ("evaluate", "inputs_of", "users_of", "backward"):
        assert any(line.strip().startswith(f"{function}:") for line in rest), function
    assert f"all {len(checks.all_checks()) + len(answer_cells())} checks passed" in out  # every lesson's notebook


@pytest.mark.slow
def test_results_json_follows_the_gradescope_schema(graded):
    """Top-level score, execution_time, output, tests, and the kit's own fields (max_score, isolation) in extra_data;
    no key outside Gradescope's documented ones, at the top or in a test; each test named after a check, one per
    check, and carrying that check's parts in its extra_data."""
    for name in ("stub", "correct"):
        result = results(graded[name])
        assert {"score", "execution_time", "output", "tests", "extra_data"} <= set(result)
        assert set(result) <= report.GRADESCOPE_KEYS, set(result) - report.GRADESCOPE_KEYS
        assert {"max_score", "isolation"} <= set(result["extra_data"])
        assert isinstance(result["output"], str) and result["execution_time"] >= 0
        for test in result["tests"]:
            assert {"name", "score", "max_score", "status", "output"} <= set(test) <= report.GRADESCOPE_TEST_KEYS, test
            assert test["status"] in {"passed", "failed"}
            assert isinstance(test["output"], str) and test["output"]
            assert 0 <= test["score"] <= test["max_score"] == CHECKS[check_id(test["name"])].points
            check = CHECKS[check_id(test["name"])]
            assert test["extra_data"] == {"check": check.id, "family": check.family, "function": check.function}
        assert sorted(check_id(t["name"]) for t in result["tests"]) == sorted(CHECKS)
        assert result["score"] == pytest.approx(sum(t["score"] for t in result["tests"]))
        assert result["extra_data"]["max_score"] == pytest.approx(sum(t["max_score"] for t in result["tests"]))


@pytest.mark.slow
def test_output_is_written_by_the_kit_in_one_step(graded, cli_folder):
    """--output FILE holds the same results as --json prints, written whole: no temporary file is left beside it."""
    out = cli_folder / "out"
    assert [p.name for p in out.iterdir()] == ["correct.json"]
    assert json.loads((out / "correct.json").read_text(encoding="utf-8")) == results(graded["correct"])


@pytest.mark.slow
def test_no_output_shows_the_folders_the_hand_in_sits_in(graded, cli_folder):
    """Results, summaries and messages name files from the hand-in's own name down ("both: ...", "graph.py: ..."),
    never by the grading machine's folders; and they say how learner code was isolated."""
    for name, run in graded.items():
        assert str(cli_folder) not in run.stdout + run.stderr, name
    assert graded["folder"].stdout.startswith("both: ")
    assert results(graded["correct"])["output"].startswith("graph.py: 100/100")
    assert results(graded["correct"])["extra_data"]["isolation"] == "full"


@pytest.mark.parametrize(
    "name, content",
    [("missing.ipynb", None), ("broken.ipynb", '{"cells": [\n'), ("graph.py", None), ("no/such/path", None)],
    ids=["missing notebook", "invalid JSON notebook", "missing module", "missing folder"],
)
def test_unreadable_submission_exits_2_naming_file_and_fix(tmp_path, capsys, name, content):
    """A path that does not exist or a notebook that is not JSON: exit 2, file and fix on stderr, and results worth 0
    that say the same on stdout."""
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, stdout, stderr = in_process(capsys, "grade", path, "--json")
    assert code == 2, stderr
    result = json.loads(stdout)
    assert (result["score"], result["tests"]) == (0, []) and "could not be graded" in result["output"]
    shown = Path(name).name  # a path is shown from the hand-in's own name down
    assert shown in stderr and shown in result["output"]
    assert re.search(r"check|save|hand", stderr.split(shown, 1)[1]), f"no fix suggested: {stderr}"
    assert "Traceback" not in stderr


def test_a_missing_path_says_so(tmp_path):
    """As the tests above, but through ``python -m autograder`` in a process of its own: the exit code is main()'s."""
    run = grade(tmp_path / "no" / "such" / "path")
    assert run.returncode == 2 and "no such file or folder" in run.stderr, run.stderr


@pytest.mark.slow
def test_a_written_module_beside_untouched_notebooks_is_said_once(tmp_path):
    """A folder whose graph.py is written and whose lesson notebook is the unanswered release: the functions are
    graded from graph.py, said once, and the unanswered cells make one line, not one per cell."""
    import json

    from autograder.course.markers import replace_regions

    nb = json.loads(SOURCE_NOTEBOOKS[0].read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        cell["source"] = replace_regions(
            "".join(cell["source"]), lambda indent, _line: f"{indent}raise NotImplementedError()\n"
        )
    (tmp_path / SOURCE_NOTEBOOKS[0].name).write_text(json.dumps(nb), encoding="utf-8")
    shutil.copy(REFERENCE, tmp_path / "graph.py")
    result = results(grade(tmp_path, "--json"))
    lesson = by_lesson.lesson_points(LESSONS[0])
    answer_points = sum(p for g, p in lesson.items() if not grade_cells()[g].function)
    assert result["score"] == sum(lesson.values()) - answer_points
    assert result["output"].count("so the code graded is graph.py's") == 1
    assert result["output"].count("NotImplementedError") == 1


# ---------------------------------------------------------------- outcomes other than a grade, in this process


def run_main(capsys, *argv):
    """(exit code, stdout, stderr) of the CLI's main() in this process."""
    code = cli.main(["grade", *map(str, argv)])
    printed = capsys.readouterr()
    return code, printed.out, printed.err


def test_a_sandbox_that_cannot_isolate_refuses_with_results_worth_0(tmp_path, capsys, monkeypatch):
    """A machine without full isolation, no weaker mode asked for: the first sandbox refuses to start (IsolationError),
    and the CLI exits 3 with the reason and its fixes on stderr and in results worth 0, no traceback."""
    from autograder.sandbox import isolation

    monkeypatch.delenv(cli.SANDBOX_ENV, raising=False)
    monkeypatch.setattr(isolation, "probe", lambda: ("limits", ["not root: no namespaces"]))
    notebook = shutil.copy(SOURCE_NOTEBOOKS[0], tmp_path / SOURCE_NOTEBOOKS[0].name)
    out = tmp_path / "results.json"
    code, stdout, stderr = run_main(capsys, notebook, "--output", out)
    assert code == cli.EXIT_CANNOT_RUN, stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    assert (
        result["score"] == 0
        and result["extra_data"]["isolation"] == "none"
        and "not root: no namespaces" in result["output"]
    )
    assert "sudo" in stderr and "--isolation limits" in stderr and "Traceback" not in stderr + stdout


def test_a_grader_failure_is_results_worth_0_without_a_traceback(tmp_path, capsys, monkeypatch):
    """Whatever else goes wrong while grading a hand-in: exit 2, results worth 0 naming it, no traceback or kit path."""

    def crash(path, lesson=None):
        raise RecursionError(f"deep inside {ROOT}/autograder")

    monkeypatch.setattr(by_lesson, "grade_path", crash)
    out = tmp_path / "results.json"
    code, stdout, stderr = run_main(capsys, tmp_path / "handin", "--output", out, "--json")
    assert code == cli.EXIT_CANNOT_GRADE
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result == json.loads(stdout) and result["score"] == 0
    assert "handin: the grader failed on this hand-in (RecursionError)" in result["output"]
    assert str(ROOT) not in stdout + stderr and str(tmp_path) not in stdout + stderr and "Traceback" not in stderr


def test_an_output_that_cannot_be_written_exits_3(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    code, _stdout, stderr = run_main(capsys, tmp_path / "nothing", "--output", tmp_path / "taken")
    assert code == cli.EXIT_CANNOT_RUN and "cannot write" in stderr and "--output" in stderr


@pytest.mark.parametrize(
    "asked, before, during", [("limits", None, "limits"), ("full", "limits", None), (None, "limits", "limits")]
)
def test_isolation_is_asked_for_by_name(tmp_path, capsys, monkeypatch, asked, before, during):
    """--isolation limits sets GRAPHKIT_SANDBOX=limits for the run alone; --isolation full takes it back; without the
    option the environment decides."""
    if before is None:
        monkeypatch.delenv(cli.SANDBOX_ENV, raising=False)
    else:
        monkeypatch.setenv(cli.SANDBOX_ENV, before)
    seen = []

    def record(path, lesson=None):
        seen.append(os.environ.get(cli.SANDBOX_ENV))
        raise by_lesson.SubmissionError(f"{path}: nothing here; hand it in again")

    monkeypatch.setattr(by_lesson, "grade_path", record)
    run_main(capsys, tmp_path / "x.py", *(["--isolation", asked] if asked else []))
    assert seen == [during] and os.environ.get(cli.SANDBOX_ENV) == before


# ---------------------------------------------------------------- the documented CI recipe and non-root runners


def test_the_ci_recipe_grades_as_root_and_lets_the_kit_write_the_results():
    """.github/workflows/grade.yml: the grading step runs under sudo (full isolation on GitHub's runners), the kit
    writes results.json itself (--output, no shell redirect), and the results are kept even when the bar is missed."""
    import yaml  # jupyterlab brings PyYAML

    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "grade.yml").read_text(encoding="utf-8"))
    (job,) = flow["jobs"].values()
    runs = [step["run"] for step in job["steps"] if "run" in step]
    (grading,) = [run for run in runs if "-m autograder grade" in run]
    assert grading.startswith("sudo ") and "--output results.json" in grading
    assert ">" not in grading and "--json" not in grading and "limits" not in grading
    (upload,) = [step for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact")]
    assert upload["if"] == "always()" and upload["with"]["path"] == "results.json"


NOBODY = 65534


def _as_nobody(command, env, cwd=ROOT):
    prefix = [shutil.which("setpriv"), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    return subprocess.run(prefix + command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def nobody(tmp_path_factory):
    """(python, env, folder): an interpreter user 65534 runs the kit with, and a world-readable folder holding lesson
    1's
    notebook and a results folder that user owns. Skipped unless root with setpriv, and such an interpreter exists."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and util-linux's setpriv to run the CLI as another user")
    folder = Path(tempfile.mkdtemp(prefix="graphkit-nobody-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        shutil.copy(SOURCE_NOTEBOOKS[0], folder / SOURCE_NOTEBOOKS[0].name)
        (folder / "results").mkdir()
        os.chown(folder / "results", NOBODY, NOBODY)
        runs_kit = (
            "import os, sys; from autograder.sandbox.isolation import interpreter; "
            "sys.exit(0 if os.access(interpreter(), os.X_OK) else 1)"
        )
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        base = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(folder / "results")}
        paths = os.pathsep.join([str(ROOT), sysconfig.get_paths()["purelib"]])
        # This interpreter; else the system's of the same version with the kit's packages (when ours sits where
        # that user cannot reach it, as under /root).
        for python, env in [(sys.executable, base), (f"/usr/bin/{version}", dict(base, PYTHONPATH=paths))]:
            if os.path.exists(python) and _as_nobody([python, "-c", runs_kit], env).returncode == 0:
                yield python, env, folder
                return
        pytest.skip(f"no interpreter that user {NOBODY} can run the kit with")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_non_root_run_isolates_fully_or_refuses(nobody):
    """As an unprivileged user, with no weaker mode asked for: the CLI isolates fully (unprivileged user namespaces)
    and grades, or refuses (exit 3) with the reason and its fixes; it never grades with resource limits unasked."""
    python, env, folder = nobody
    out = folder / "results" / "default.json"
    run = _as_nobody(
        [python, "-m", "autograder", "grade", str(folder / SOURCE_NOTEBOOKS[0].name), "--output", str(out)], env
    )
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "Traceback" not in run.stderr, run.stderr
    if run.returncode == cli.EXIT_GRADED:
        assert result["extra_data"]["isolation"] == "full" and result["score"] == result["extra_data"]["max_score"], (
            result["output"]
        )
    else:
        assert run.returncode == cli.EXIT_CANNOT_RUN, run.stderr
        assert result["score"] == 0 and result["extra_data"]["isolation"] == "none"
        assert "sudo" in run.stderr and "--isolation limits" in run.stderr, run.stderr


def test_a_non_root_run_grades_with_limits_when_asked_and_says_so(nobody):
    """--isolation limits, asked for by name: the same notebook grades, and the results say how it was isolated."""
    python, env, folder = nobody
    out = folder / "results" / "limits.json"
    notebook = folder / SOURCE_NOTEBOOKS[0].name
    run = _as_nobody(
        [python, "-m", "autograder", "grade", str(notebook), "--output", str(out), "--isolation", "limits"], env
    )
    assert run.returncode == cli.EXIT_GRADED, run.stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["extra_data"]["isolation"] == "limits" and result["score"] == result["extra_data"]["max_score"], (
        result["output"]
    )
    assert "resource limits only" in result["output"]
