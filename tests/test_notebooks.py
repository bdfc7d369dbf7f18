"""The nbgrader lesson notebooks: built from the reference, valid for nbgrader, answer-free once released.

The slow tests run the real `nbgrader` next to this Python in a temporary copy
of notebooks/, so nothing is written into the repository; the release notebooks
they check are the test run's prepared course's (tests/conftest.py).
"""

import json
import re
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest

from autograder.authoring import lessons
from autograder.course.lessons import LESSONS, LessonError, grade_cells, parse as parse_lesson
from autograder.course.paths import NOTEBOOKS, REFERENCE, reference_modules
from autograder.grading.answers import judges, names_of, verdict
from autograder.grading.by_lesson import cell_points
from autograder.nbgrader.named_stubs import tasks_of
from graphcourse.examples import ABA_SQUARED, ABC_LEAVES, ABC_SQUARED, DIAMOND, DIAMOND_LEAVES
from solutions import graph as reference
from tests.conftest import finish, nbgrader, prepared_course

REFERENCE_TEXT = REFERENCE.read_text(encoding="utf-8")
REFERENCES = {"graph": REFERENCE_TEXT}
VALIDATE_PASSED = "Success! Your notebook passes all the tests."
VALIDATE_INVERT_PASSED = "Success! The notebook does not pass any tests."

# Answers of the right form but the wrong value, one per judge: the visible checks accept them,
# the judge does not. A judge added to autograder/grading/answers.py needs one here.
WRONG_ANSWERS = {
    "order": {"ORDER": ["q", "p", "L"]},
    "inputs_of_q": {"INPUTS_OF_Q": ["p", "a", "b"]},
    "fan_out_node": {"FAN_OUT_NODE": "p"},
    "edge_count": {"EDGE_COUNT": 6},
    "choice": {},  # any letter but the key: see wrong_answer
    "equals": {},  # derived from the key: see wrong_answer
    "one_of": {},
    "assign_instead_of_add": {"ASSIGN_X": 128, "FIRST_WRONG": "t"},
    "gradient_of_z": {"GRAD_Z": 7},
}


def wrong_answer(cell):
    """Values of the right form but the wrong value for one answer cell."""
    if cell.judge == "choice":
        ((name, key),) = cell.solution.items()
        return {name: next(letter for letter in "ABC" if letter != key)}
    if cell.judge in ("equals", "one_of"):  # a value of the key's kind that the judge must refuse
        accepted = cell.options.get("accept", {})
        return {name: _other(key, accepted.get(name, [key])) for name, key in cell.solution.items()}
    return dict(WRONG_ANSWERS[cell.judge])


def _other(key, accepted):
    """A value of the key's type that is none of the accepted ones."""
    if isinstance(key, bool):
        return not key
    if isinstance(key, (int, float)):
        return type(key)(max(accepted) * 2 + 7)
    if isinstance(key, str):
        return next(c for c in ("A", "B", "C", "D", "zz_not_it") if c not in accepted)
    return type(key)()


# ---------------------------------------------------------------- helpers


def notebook_paths(root=NOTEBOOKS, step="source"):
    return {lesson.assignment: root / step / lesson.assignment / lesson.notebook for lesson in LESSONS}


def parse(text):
    """A notebook's JSON text as attribute-style cells with joined sources (nbformat costs seconds to import)."""
    nb = json.loads(text)
    cells = [SimpleNamespace(**dict(cell, source="".join(cell["source"]))) for cell in nb["cells"]]
    return SimpleNamespace(**dict(nb, cells=cells))


def read(path):
    return parse(path.read_text(encoding="utf-8"))


def meta(cell):
    return cell.metadata.get("nbgrader", {})


def regions(source, begin, end):
    """The lines inside each begin/end marker pair of a cell or file, one list per region."""
    found, current = [], None
    for line in source.splitlines():
        if begin in line:
            current = []
        elif end in line:
            found.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return found


def drop_regions(source, begin, end, stub=()):
    """The source with each marked region replaced by ``stub`` lines at the marker's indent.

    ``stub`` may be a function of the region's position (0, 1, ...) that returns its lines.
    """
    out, inside, count = [], False, 0
    for line in source.split("\n"):
        if begin in line:
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out.extend(indent + s for s in (stub(count) if callable(stub) else stub))
            count += 1
        elif end in line:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def code_lines(nb):
    return {line.strip() for cell in nb.cells if cell.cell_type == "code" for line in cell.source.splitlines()}


def copy_course(parent):
    """A throwaway copy of the course directory (notebooks/) under ``parent``."""
    copy = parent / "notebooks"
    shutil.copytree(
        NOTEBOOKS,
        copy,
        ignore=shutil.ignore_patterns(
            "gradebook.db", "release", "submitted", "autograded", "feedback", ".ipynb_checkpoints"
        ),
    )
    return copy


# Run in a child process next to nbgrader: importing nbformat's schema machinery takes seconds.
NBFORMAT_CHECK = """
import sys, nbformat
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)
    assert nbformat.writes(nb) + "\\n" == text, path + " is not laid out as nbformat writes it"
    print("valid", path)
"""


@pytest.fixture(scope="module")
def nbgrader_runs(tmp_path_factory):
    """Run every slow check once: validate the sources (and their nbformat schema) in a course copy while
    `nbgrader validate --invert` runs on the release notebooks of the test run's prepared course.

    That release is what `nbgrader generate_assignment` made once for every file that grades (conftest's
    prepared_course); test_release.py checks that the learner bundle's notebooks are the same bytes.
    The runs go side by side because every nbgrader start costs seconds.
    """
    plain = copy_course(tmp_path_factory.mktemp("validate"))
    sources = [str(p.relative_to(plain)) for p in notebook_paths(plain).values()]
    validating = nbgrader(plain, "validate", *sources)
    schema = subprocess.Popen(
        [sys.executable, "-c", NBFORMAT_CHECK, *[str(p) for p in notebook_paths(plain).values()]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    course = prepared_course(tmp_path_factory.mktemp("release") / "course", pictures=False).root
    releases = [str(p.relative_to(course)) for p in notebook_paths(course, "release").values()]
    runs = {"course": course}
    runs["invert"] = finish(nbgrader(course, "validate", "--invert", *releases), "nbgrader validate --invert")
    runs["validate"] = finish(validating, "nbgrader validate")
    runs["nbformat"] = finish(schema, "the nbformat check")
    return runs


@pytest.fixture(scope="module")
def released(nbgrader_runs):
    """The prepared course copy, holding every lesson's release notebook."""
    course = nbgrader_runs["course"]
    missing = [p for p in notebook_paths(course, "release").values() if not p.is_file()]
    assert not missing, f"generate_assignment did not release {missing}"
    return course


# ---------------------------------------------------------------- the builder


def test_committed_notebooks_equal_builder_output():
    """Every committed source notebook is exactly what `python -m autograder.authoring.lessons` writes."""
    expected = lessons.expected_notebooks()
    assert set(expected) == set(notebook_paths().values())
    for path, text in expected.items():
        assert path.exists(), f"{path} is missing: run `make notebooks`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is out of date: run `make notebooks`"
    assert lessons.main(["--check"]) == 0


def test_check_names_the_stale_notebook_and_the_fix(tmp_path, monkeypatch, capsys):
    """`--check` exits 1 and names the drifted notebook and `make notebooks`."""
    copy = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, copy)
    target = notebook_paths(copy)["lesson2_backward"]
    target.write_text(target.read_text(encoding="utf-8").replace("Lesson 2", "Lesson Two"), encoding="utf-8")
    monkeypatch.setattr(lessons, "NOTEBOOKS", copy)
    assert lessons.stale(copy) == [target]
    assert lessons.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "backward_sweep.ipynb" in err and "make notebooks" in err
    assert "computation_graphs.ipynb" not in err


def test_builder_output_is_deterministic_and_clean():
    """Two builds agree; notebooks are nbformat 4.5, python3, output-free, with unique fixed cell ids."""
    first, second = lessons.expected_notebooks(), lessons.expected_notebooks()
    assert first == second
    for path, text in first.items():
        nb = parse(text)
        assert (nb.nbformat, nb.nbformat_minor) == (4, 5)
        assert nb.metadata["kernelspec"]["name"] == "python3"
        ids = [cell.id for cell in nb.cells]
        assert len(ids) == len(set(ids)), path
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None
            if meta(cell):
                assert cell.id == meta(cell)["grade_id"]


def test_lesson_file_errors_name_the_line():
    """A bad header or an unknown reference name is reported with its lesson file line."""
    with pytest.raises(LessonError, match=r"bad\.py:3: unknown cell kind 'prose'"):
        parse_lesson("# %% [markdown]\n# hello\n# %% prose\n", "bad.py")
    with pytest.raises(LessonError, match=r"bad\.py:1: the value of points is not JSON"):
        parse_lesson('# %% tests grade_id="x" points=one judge="order"\n', "bad.py")
    with pytest.raises(LessonError, match=r"bad\.py:1: .*no top-level nothing_here"):
        lessons.build_notebook(
            LESSONS[0], '# %% reference grade_id="x" module="graph" names=["nothing_here"]\n', REFERENCES, "bad.py"
        )


ANSWER = '# %% answer grade_id="q_solution"\n### BEGIN SOLUTION\nORDER = ["p", "q", "L"]\n### END SOLUTION\n'


@pytest.mark.parametrize(
    "lesson_text, says",
    [
        (
            ANSWER + '# %% tests grade_id="q" points=1 judge="nosuch"\nassert True\n',
            r"bad\.py:5: judge='nosuch' is not defined; use one of the kit's \(choice, equals, one_of\)",
        ),
        (
            ANSWER + '# %% tests grade_id="q" judge="order"\nassert True\n',
            r"bad\.py:5: an answer's grade cell needs points=",
        ),
        (
            '# %% tests grade_id="q" points=1 judge="order"\nassert True\n',
            r"bad\.py:1: a judge cell needs the answer cell",
        ),
        (
            ANSWER.replace("ORDER", "ORDRE") + '# %% tests grade_id="q" points=1 judge="order"\nassert True\n',
            r"the judge 'order' reads ORDER, but the answer cell above assigns ORDRE",
        ),
        (
            '# %% tests grade_id="f" grades="forward"\nassert True\n',
            r"bad\.py:1: grades='forward', but no reference cell of this lesson names it",
        ),
        (
            '# %% reference grade_id="r" module="graph" names=["forward"]\n'
            '# %% tests grade_id="f" grades="forward"\nassert True\n',
            r"bad\.py:2: no hidden check grades 'forward'",
        ),
        (
            '# %% reference grade_id="r" module="nowhere" names=["forward"]\n',
            r"module='nowhere', but solutions/ has no nowhere\.py",
        ),
        (
            '# %% tests grade_id="f" grades="evaluate" points=25\nassert True\n',
            r"a function cell is worth its hidden checks",
        ),
        ('# %% tests grade_id="f"\nassert True\n', r"grades either a function .* or an answer"),
        ('# %% answer grade_id="a"\nORDER = 1\n', r"answer cell 'a' has no solution region"),
    ],
)
def test_a_forgotten_grade_cell_setting_is_named(lesson_text, says):
    """Whatever an author leaves out of a grade cell's header, the build names it with the file and line."""
    with pytest.raises(LessonError, match=says):
        lessons.build_notebook(LESSONS[0], lesson_text, REFERENCES, "bad.py")


def test_grade_cells_and_points_match_the_table():
    """Each notebook's grade cells are the course table's, in order, worth their points, every judge has a test."""
    table = grade_cells()
    for lesson in LESSONS:
        graded = [meta(c) for c in read(lesson.notebook_path()).cells if meta(c).get("grade")]
        assert [m["grade_id"] for m in graded] == [g for g, c in table.items() if c.assignment == lesson.assignment]
        for m in graded:
            assert m["points"] == cell_points(table[m["grade_id"]])
            assert m["schema_version"] == 3 and not m["solution"] and not m["locked"]
    used = {c.judge for c in table.values() if c.judge}
    assert used <= set(judges()) and used <= set(WRONG_ANSWERS), "every judge a lesson uses is defined and tested here"


def test_definition_cells_are_cut_verbatim_from_the_reference():
    """Each reference cell is exact slices of its own module (solutions/<the cell's module=>.py), the definitions
    its names= lists, solution markers included; no other locked or solution cell defines anything."""
    modules = reference_modules()
    defined = {}
    for lesson in LESSONS:
        cells = parse_lesson(lesson.source_path().read_text(encoding="utf-8"), lesson.source)
        wanted = {c.grade_id: c.settings for c in cells if c.kind == "reference"}
        for cell in read(lesson.notebook_path()).cells:
            if cell.cell_type != "code" or not (meta(cell).get("locked") or cell.id.endswith("_solution")):
                continue
            if cell.id not in wanted:
                assert "def " not in cell.source and "OPS =" not in cell.source, (
                    f"{lesson.notebook}:{cell.id} defines something but is no reference cell of {lesson.source}"
                )
                continue
            module, names = wanted[cell.id]["module"], wanted[cell.id]["names"]
            blocks = lessons.reference_blocks(modules[module].read_text(encoding="utf-8"))
            named = [blocks[name] for name in names]
            rest = cell.source  # a cell naming several definitions is their slices, one after another
            while rest:
                block = next((b for b in named if rest.startswith(b)), None)
                assert block, f"{lesson.notebook}:{cell.id} is not made of slices of solutions/{module}.py ({names})"
                rest = rest[len(block) :].lstrip("\n")
            defined[cell.id] = cell.source
    assert {"ops_table", "evaluate_solution", "inputs_of_solution", "users_of_solution", "backward_solution"} <= set(
        defined
    )
    for name in ("evaluate", "inputs_of", "users_of", "backward"):
        source = defined[f"{name}_solution"]
        assert source.startswith(f"def {name}(") and source.rstrip().endswith("### END SOLUTION")


def test_a_reference_edit_reaches_the_notebook():
    """Changing a line of solutions/graph.py changes the built notebook, so `--check` would catch the drift."""
    lesson = LESSONS[0]
    text = lesson.source_path().read_text(encoding="utf-8")
    edited = REFERENCE_TEXT.replace("    return values\n", "    return dict(values)\n")
    assert edited != REFERENCE_TEXT
    before = lessons.build_notebook(lesson, text, REFERENCES)
    after = lessons.build_notebook(lesson, text, {"graph": edited})
    assert before != after and '"    return dict(values)\\n",' in after


def test_notebook_functions_behave_like_the_reference():
    """OPS and the functions the source notebooks define match the reference: each lesson's cells run in the
    namespace of its module (lessons 1 and 2 share graph's), and each module's OPS has its reference's ops."""
    import importlib

    table = grade_cells()
    spaces = {}  # module: the namespace its lessons' cells ran in
    for lesson in LESSONS:
        modules = {c.module for c in table.values() if c.assignment == lesson.assignment and c.module}
        assert len(modules) == 1, f"{lesson.source} grades functions of {sorted(modules)}: one module per lesson"
        space = spaces.setdefault(modules.pop(), {})
        for cell in read(lesson.notebook_path()).cells:
            m = meta(cell)
            if cell.cell_type == "code" and (m.get("solution") or m.get("locked")) and not m.get("grade"):
                exec(compile(cell.source, f"{lesson.notebook}:{cell.id}", "exec"), space)
    for module, space in spaces.items():
        ops = getattr(importlib.import_module(f"solutions.{module}"), "OPS", None)
        assert set(space.get("OPS", ())) == set(ops or ()), (
            f"the {module} lessons' OPS differs from solutions/{module}.py's"
        )
    ns = spaces["graph"]
    z = ABC_SQUARED[:2]
    mixed = [
        ("u", "sub", ["x", "y"]),
        ("v", "div", ["u", "y"]),
        ("w", "tanh", ["v"]),
        ("r", "relu", ["w"]),
        ("n", "neg", ["r"]),
    ]
    cases = [
        (z, ABC_LEAVES),
        (ABC_SQUARED, ABC_LEAVES),
        (ABA_SQUARED, {"a": 2, "b": 3}),
        (DIAMOND, DIAMOND_LEAVES),
        (mixed, {"x": 5.0, "y": 2.0}),
    ]

    assert ns["evaluate"](*cases[0])["z"] == 7
    for graph, leaves in cases:
        values = reference.evaluate(graph, leaves)
        assert ns["evaluate"](graph, leaves) == values
        assert ns["backward"](graph, values) == reference.backward(graph, values)
        for node, _op, _inputs in graph:
            assert ns["backward"](graph, values, node) == reference.backward(graph, values, node)
        for name in [*values, "nowhere"]:
            assert ns["inputs_of"](graph, name) == reference.inputs_of(graph, name)
            assert ns["users_of"](graph, name) == reference.users_of(graph, name)
    assert ns["backward"](DIAMOND, {"x": 2, "a": 4, "t": 8, "L": 64})["x"] == 128
    for impl in (ns["evaluate"], reference.evaluate):
        with pytest.raises(ValueError):
            impl(list(reversed(z)), {"a": 2, "b": 3, "c": 1})


def test_answer_checks_accept_the_answer_and_hide_the_verdict():
    """Each answer's visible check passes on the lesson's answer and on a wrong one; only the judge tells them apart."""
    table = grade_cells()
    for path in notebook_paths().values():
        cells = read(path).cells
        for i, cell in enumerate(cells):
            graded = table.get(meta(cell).get("grade_id", ""))
            if not (meta(cell).get("grade") and graded and graded.judge):
                continue
            answer = cells[i - 1]
            assert meta(answer).get("solution"), f"{graded.grade_id} should follow its answer cell"
            assert "HIDDEN TESTS" not in cell.source, "the hidden checks grade answers, not hidden asserts"
            right = {}
            exec(answer.source, right)
            exec(cell.source, right)
            assert verdict(graded, {k: right[k] for k in names_of(graded)}) == ""
            wrong = wrong_answer(graded)
            exec(cell.source, dict(wrong))
            assert verdict(graded, wrong) != "", graded.grade_id


# ---------------------------------------------------------------- nbgrader itself


@pytest.mark.slow
def test_source_notebooks_pass_nbgrader_validate(nbgrader_runs):
    """`nbgrader validate` runs each source notebook and every grade cell passes."""
    returncode, stdout, report = nbgrader_runs["validate"]
    assert returncode == 0, report
    assert stdout.count(VALIDATE_PASSED) == len(LESSONS), report


@pytest.mark.slow
def test_source_notebooks_are_valid_nbformat(nbgrader_runs):
    """Each source notebook passes the nbformat schema and is laid out exactly as nbformat writes it."""
    returncode, stdout, report = nbgrader_runs["nbformat"]
    assert returncode == 0, report
    assert stdout.count("valid ") == len(LESSONS), report


@pytest.mark.slow
def test_release_keeps_no_solution_code(released):
    """Release notebooks contain no line of any solution region, reference or answer."""
    banned = {line.strip() for region in regions(REFERENCE_TEXT, "BEGIN SOLUTION", "END SOLUTION") for line in region}
    for path in notebook_paths().values():
        for cell in read(path).cells:
            for region in regions(cell.source, "BEGIN SOLUTION", "END SOLUTION"):
                banned.update(line.strip() for line in region)
    # Lines such as "}" or "else:" say nothing about a solution; keep the ones that do.
    banned = {line for line in banned if len(line) >= 6 and re.search(r"[A-Za-z]", line)}
    assert any("reversed(graph)" in line for line in banned) and any("raise ValueError(" in line for line in banned)
    for path in notebook_paths(released, "release").values():
        text = path.read_text(encoding="utf-8")
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "raise ValueError(", "reversed(graph)"):
            assert marker not in text, f"{path.name} still contains {marker!r}"
        leaked = banned & code_lines(read(path))
        assert not leaked, f"{path.name} still contains solution lines {sorted(leaked)}"


@pytest.mark.slow
def test_release_turns_every_solution_region_into_a_stub(released):
    """Every solution region of a source cell becomes `# YOUR CODE HERE` and a NotImplementedError naming its task."""
    for assignment, source_path in notebook_paths().items():
        release = {c.id: c for c in read(notebook_paths(released, "release")[assignment]).cells}
        solution_cells = [c for c in read(source_path).cells if meta(c).get("solution")]
        assert solution_cells
        for cell in solution_cells:
            count = len(regions(cell.source, "BEGIN SOLUTION", "END SOLUTION"))
            assert count >= 1, f"{cell.id} has no solution region"
            stubbed = release[cell.id].source
            tasks = tasks_of(cell.source)
            assert len(tasks) == count and all(tasks), (
                f"{cell.id}: a solution region neither sits in a def nor sets a variable"
            )

            def stub(index, tasks=tasks):
                return ["# YOUR CODE HERE", f'raise NotImplementedError("{tasks[index]}: not written yet")']

            assert stubbed == drop_regions(cell.source, "BEGIN SOLUTION", "END SOLUTION", stub)
            assert stubbed.count("raise NotImplementedError(") == count


def test_every_function_stub_names_its_task_as_make_check_does():
    """A notebook's stub names the task exercises/tasks.py and `make check` name: a method's region its class's."""
    from exercises.tasks import TASKS

    named = []
    for path in notebook_paths().values():
        for cell in read(path).cells:
            if meta(cell).get("solution"):
                named += [task.split(" ", 1)[1] for task in tasks_of(cell.source) if task.startswith("task ")]
    assert set(named) == set(TASKS)
    tape_cell = next(c for c in read(notebook_paths()["lesson3_tape"]).cells if c.id == "tape_solution")
    assert set(tasks_of(tape_cell.source)) == {"task Tape", "task Var"}


def test_named_stubs_name_each_region_of_a_cell_for_its_own_task():
    """NamedStubs fills each region's stub with that region's task, not the first region's for all."""
    import nbformat

    from autograder.nbgrader.named_stubs import NamedStubs

    source = (
        "class Tape:\n    def __init__(self):\n        ### BEGIN SOLUTION\n        self.entries = []\n"
        "        ### END SOLUTION\n\n\nclass Var:\n    def value(self):\n        ### BEGIN SOLUTION\n"
        "        return 1\n        ### END SOLUTION\n"
    )
    cell = nbformat.v4.new_code_cell(
        source,
        metadata={
            "nbgrader": {"solution": True, "grade": False, "grade_id": "t", "locked": False, "schema_version": 3}
        },
    )
    step = NamedStubs(code_stub={"python": '# YOUR CODE HERE\nraise NotImplementedError("{task}: not written yet")'})
    stubbed, _ = step.preprocess_cell(cell, {"language": "python"}, 0)
    assert 'raise NotImplementedError("task Tape: not written yet")' in stubbed.source
    assert 'raise NotImplementedError("task Var: not written yet")' in stubbed.source
    assert "self.entries" not in stubbed.source and "\x00" not in stubbed.source


@pytest.mark.slow
def test_release_keeps_every_grade_cell_as_written(released):
    """Grade cells reach the release as the lesson writes them, with their points; no marker of any kind."""
    table = grade_cells()
    for assignment, source_path in notebook_paths().items():
        release_path = notebook_paths(released, "release")[assignment]
        assert "HIDDEN TESTS" not in release_path.read_text(encoding="utf-8")
        release = {c.id: c for c in read(release_path).cells}
        for cell in read(source_path).cells:
            if meta(cell).get("grade"):
                assert release[cell.id].source == cell.source
                assert meta(release[cell.id])["points"] == cell_points(table[cell.id])


@pytest.mark.slow
def test_release_notebooks_fail_every_grade_cell(released, nbgrader_runs):
    """`nbgrader validate --invert` passes: no grade cell passes before the learner has answered."""
    returncode, stdout, report = nbgrader_runs["invert"]
    assert returncode == 0, report
    assert stdout.count(VALIDATE_INVERT_PASSED) == len(LESSONS), report


def test_a_lesson_source_saved_by_jupytext_builds_the_same_notebook():
    """Opening a lesson source as a notebook in jupytext and saving it changes none of its cells: the lesson cell
    keeps the note for authors out of the notebook, and settings keep their values (jupytext may re-escape them)."""
    import jupytext

    for path in sorted((NOTEBOOKS / "lessons").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        saved = jupytext.writes(jupytext.reads(text, fmt="py:percent"), fmt="py:percent")
        assert parse_lesson(saved, path.name) == parse_lesson(text, path.name), (
            f"{path.name} changes when jupytext saves it"
        )
