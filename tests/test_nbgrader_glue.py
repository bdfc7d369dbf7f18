"""The nbgrader side of grading: the HiddenChecks preprocessor, restored metadata, answer cells, the course config.

Most tests call the preprocessor in this process on a gradebook made with nbgrader's
own API, so they need no nbgrader command. The slow one runs nbgrader commands on a
temporary copy of the committed course configuration.
"""

import json
import shutil
import warnings
import zipfile
from pathlib import Path

import nbformat
import pytest
from nbgrader import utils
from nbgrader.api import Gradebook
from traitlets.config.loader import PyFileConfigLoader

from autograder.course import active
from autograder.course.lessons import LESSONS, grade_cells
from autograder.course.metadata import restore_metadata
from autograder.course.paths import NOTEBOOKS
from autograder.grading import answers, cellgrades
from autograder.nbgrader import env, hidden_checks
from graphcourse import demo
from graphcourse.checks import all_checks
from tests.conftest import finish, nbgrader, prepared_course

LESSON1 = LESSONS[0]


def source_notebook(lesson=LESSON1):
    return json.loads(lesson.notebook_path(NOTEBOOKS).read_text(encoding="utf-8"))


def grade_id(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def learner_notebook(learner, lesson=LESSON1):
    """A handed-in notebook: the source notebook with the learner's code and answers in its solution cells."""
    source = source_notebook(lesson)
    return demo.filled(source, source, learner)


def grade_cell(outputs, points):
    meta = {
        "grade": True,
        "grade_id": "some_test",
        "locked": False,
        "points": points,
        "schema_version": 3,
        "solution": False,
    }
    return nbformat.v4.new_code_cell("pass", metadata={"nbgrader": meta}, outputs=outputs)


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    """A gradebook holding lesson 1 with three of its grade cells (two answers, users_of) and its solution cells."""
    url = f"sqlite:///{tmp_path_factory.mktemp('gradebook') / 'gradebook.db'}"
    notebook = Path(LESSON1.notebook).stem
    with env.alembic_on_path(), Gradebook(url) as gb:
        gb.update_or_create_assignment(LESSON1.assignment)
        gb.update_or_create_notebook(notebook, LESSON1.assignment)
        for name, points in (("answer_order", 1), ("answer_edge_count", 1), ("users_of_correct", 15)):
            gb.update_or_create_grade_cell(name, notebook, LESSON1.assignment, max_score=points, cell_type="code")
        for cell in source_notebook()["cells"]:
            if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                gb.update_or_create_solution_cell(grade_id(cell), notebook, LESSON1.assignment)
    return url


def run_preprocessor(nb, db_url, cache_dir, student="someone"):
    resources = {
        "nbgrader": {
            "notebook": Path(LESSON1.notebook).stem,
            "assignment": LESSON1.assignment,
            "student": student,
            "db_url": db_url,
        }
    }
    node = nbformat.reads(json.dumps(nb), as_version=4)  # as nbgrader reads a notebook file
    graded, _ = hidden_checks.HiddenChecks(cache_dir=str(cache_dir)).preprocess(node, resources)
    return {grade_id(c): c for c in graded.cells if utils.is_grade(c)}


def output_text(cell):
    return "\n".join("\n".join(o.get("traceback", [])) + o.get("text", "") for o in cell.outputs)


# ---------------------------------------------------------------- points and outputs


def checks_functions():
    return {check.function for check in all_checks()}


def test_function_cells_are_worth_their_hidden_checks():
    """In the committed source notebooks, each function's grade cell is worth exactly the points of its hidden
    checks."""
    graded = {}
    for lesson in LESSONS:
        for cell in source_notebook(lesson)["cells"]:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade"):
                graded[meta["grade_id"]] = meta["points"]
    functions = {cell.function: graded[cell.grade_id] for cell in grade_cells().values() if cell.function}
    assert sorted(functions) == sorted(checks_functions()), "every graded function has a grade cell, and no other"
    for function, points in functions.items():
        assert points == sum(check.points for check in all_checks() if check.function == function), function
    answers = sum(cell.points for cell in grade_cells().values() if cell.judge)
    assert sum(graded.values()) == sum(functions.values()) + answers, "the notebooks hold the course table's points"


@pytest.mark.parametrize("score", [25.0, 20.0, 0.0])
def test_outputs_give_nbgrader_the_score(score):
    """nbgrader's determine_grade reads full, partial and zero credit back from the outputs written for a cell."""
    errors = [] if score == 25 else [{"name": "x/y", "summary": "one line", "message": "x/y FAILED\n  the rule: ..."}]
    outcome = {"score": score, "max": 25.0, "summary": "hidden checks: ...", "errors": errors}
    cell = grade_cell(hidden_checks.cell_outputs(outcome), 25)
    assert utils.determine_grade(cell) == (score, 25.0)
    shown = [o for o in cell.outputs if o.output_type == "error"]
    assert [o.traceback for o in shown] == [["x/y FAILED", "  the rule: ..."]] * len(errors)


# ---------------------------------------------------------------- answer cells


def test_answer_keys_are_computed_from_the_reference_and_the_zoo():
    """The assign-instead-of-add answers come out of the zoo entry's sweep: x gets 16 and t is the first wrong node."""
    assert active.part("answers").assign_sweep() == (16.0, "t")


def test_answer_cells_accept_right_answers_and_explain_wrong_ones():
    """Right answers (in any valid form) pass; wrong ones get a message that names the mistake."""
    from autograder.grading.submission import Chunk

    right = Chunk(
        "c",
        'ORDER = ["p", "q", "L"]\nINPUTS_OF_Q = ["a", "p"]\nFAN_OUT_NODE = "a"\nEDGE_COUNT = 5\n'
        'CHOICE = "C"\nASSIGN_X = 16.0\nFIRST_WRONG = "t"\nGRAD_Z = 14\nCHOICE_SHARED = "B"\nCHOICE_STEP = "B"',
    )
    wrong = Chunk(
        "c",
        'ORDER = ["q", "p", "L"]\nINPUTS_OF_Q = ["p", "a", "b"]\nFAN_OUT_NODE = "p"\nEDGE_COUNT = True\n'
        'CHOICE = "B"\nASSIGN_X = 128\nFIRST_WRONG = "L"\nGRAD_Z = 7\nCHOICE_SHARED = "C"\nCHOICE_STEP = "A"',
    )
    cells = {g: c for g, c in answers.answer_cells().items() if c.assignment in ("lesson1_graphs", "lesson2_backward")}
    assert answers.judge([right], list(cells)) == {g: "" for g in cells}
    said = answers.judge([wrong], list(cells))
    assert "node 'q' reads 'p'" in said["answer_order"]
    assert "'b' has no arrow straight into q" in said["answer_inputs_of_q"]
    assert "read only by q" in said["answer_fan_out_node"]
    assert "whole number" in said["answer_edge_count"]
    assert "leaf" in said["answer_multiple_choice"]
    assert (
        "correct sweep" in said["answer_assign_instead_of_add"]
        and "FIRST_WRONG" in said["answer_assign_instead_of_add"]
    )
    assert "forward value" in said["answer_gradient_of_z"]
    assert "assign-instead-of-add" in said["answer_shared_branches"]
    assert "sensitivity" in said["answer_backprop_is_not_a_step"]
    missing = answers.judge([Chunk("c", "raise NotImplementedError()")], ["answer_order"])
    assert "NotImplementedError" in missing["answer_order"]


# ---------------------------------------------------------------- metadata and chunks


def test_restore_metadata_undoes_copied_cells_and_edited_metadata():
    """Copied test cells, raised points, flipped flags and a bad schema version all go back to the release's
    metadata."""
    release = source_notebook()
    learner = demo.Learner("someone", "right code, edited metadata")
    handed_in = demo.tamper(learner_notebook(learner))
    del handed_in["cells"][[grade_id(c) for c in handed_in["cells"]].index("answer_edge_count")]
    restored = restore_metadata(handed_in, release)

    wanted = {grade_id(c): c["metadata"]["nbgrader"] for c in release["cells"] if grade_id(c)}
    found = [grade_id(c) for c in restored["cells"] if grade_id(c)]
    assert sorted(found) == sorted(wanted), "every grade id once, the deleted test cell put back"
    for cell in restored["cells"]:
        if grade_id(cell):
            assert cell["metadata"]["nbgrader"] == wanted[grade_id(cell)]
    ids = [c["id"] for c in restored["cells"]]
    assert len(ids) == len(set(ids))
    put_back = found.index("answer_edge_count")
    assert found[put_back - 1] == "edge_count_solution"
    learner_code = {
        "".join(c["source"])
        for c in learner_notebook(learner)["cells"]
        if c["metadata"].get("nbgrader", {}).get("solution")
    }
    assert learner_code <= {"".join(c["source"]) for c in restored["cells"]}, "the learner's code is untouched"


def test_chunks_leave_out_test_cells_by_grade_id_not_by_flags():
    """A test cell relabelled as a solution is still left out; a learner cell labelled as a test still runs."""
    nb = learner_notebook(demo.Learner("someone", "right"))
    tests = {grade_id(c) for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")}
    for cell in nb["cells"]:
        if grade_id(cell) == "evaluate_correct":
            cell["metadata"]["nbgrader"].update(grade=False, solution=True)
    nb["cells"].append(nbformat.v4.new_code_cell("LEARNER_EXTRA = 1", metadata={"nbgrader": {"grade": True}}))
    chunks, notes = cellgrades.chunks_of(nb, LESSON1.notebook, tests)
    code = "\n".join(chunk.code for chunk in chunks)
    assert "evaluate(g_sq" not in code and "LEARNER_EXTRA = 1" in code and not notes
    assert chunks[-1].label == f"{LESSON1.notebook} cell {len(nb['cells'])}"


# ---------------------------------------------------------------- the preprocessor


@pytest.mark.slow
def test_preprocessor_scores_grade_cells_by_grade_id(gradebook, tmp_path, monkeypatch):
    """Grade cells get scores from the hidden checks wherever they sit; a second run reads the cached record."""
    learner = demo.Learner(
        "someone", "users_of lists twice", code=("buggy_users_of_duplicates",), answers={"EDGE_COUNT": 6}
    )
    nb = learner_notebook(learner)
    at = [grade_id(c) for c in nb["cells"]].index("users_of_correct")
    nb["cells"].insert(0, nb["cells"].pop(at))  # moved to the top: found by grade id, not by position
    cache = tmp_path / "cache"
    graded = run_preprocessor(nb, gradebook, cache)

    scores = {
        g: utils.determine_grade(c)[0]
        for g, c in graded.items()
        if g in ("answer_order", "answer_edge_count", "users_of_correct")
    }
    users_of_points = {c.id: c.points for c in all_checks() if c.function == "users_of"}
    lost = sum(points for check, points in users_of_points.items() if check.startswith("users_of_dedup/"))
    assert scores == {"answer_order": 1.0, "answer_edge_count": 0.0, "users_of_correct": 15.0 - lost}
    assert "Count one edge for every name" in output_text(graded["answer_edge_count"])
    assert "users_of_dedup/repeated_input" in output_text(graded["users_of_correct"])
    assert graded["evaluate_correct"].outputs == [], "a grade cell the gradebook does not list is left alone"
    assert len(list((cache / "records").glob("*.json"))) == 1

    def no_grading(*args, **kwargs):
        raise AssertionError("graded again although the record is cached")

    monkeypatch.setattr(cellgrades, "grade_record", no_grading)
    again = run_preprocessor(nb, gradebook, cache)
    assert {g: c.outputs for g, c in again.items()} == {g: c.outputs for g, c in graded.items()}


@pytest.mark.slow
def test_unreadable_notebook_scores_zero_with_its_message(gradebook, tmp_path):
    """A hand-in listed in problems.json gets 0 in every grade cell, with the problem and its fix as the message."""
    cache = tmp_path / "cache"
    cache.mkdir()
    message = (
        f"{LESSON1.notebook}: not valid notebook JSON (line 3: ...); "
        "open it in JupyterLab, save it, and hand it in again"
    )
    key = f"dennis/{LESSON1.assignment}/{LESSON1.notebook}"
    (cache / hidden_checks.PROBLEMS_FILE).write_text(json.dumps({key: message}), encoding="utf-8")
    graded = run_preprocessor(source_notebook(), gradebook, cache, student="dennis")
    for name in ("answer_order", "answer_edge_count", "users_of_correct"):
        assert utils.determine_grade(graded[name])[0] == 0.0
        assert message in output_text(graded[name])


# ---------------------------------------------------------------- the course configuration


def test_course_config_swaps_execute_for_hidden_checks():
    """The committed config keeps nbgrader's autograde steps in order: HiddenChecks where Execute was, and
    where OverwriteCells and SaveAutoGrades were, their subclasses that read a notebook's rows at once."""
    from nbgrader.converters.autograde import Autograde
    from nbgrader.preprocessors import Execute, OverwriteCells, SaveAutoGrades

    config = PyFileConfigLoader("nbgrader_config.py", path=str(NOTEBOOKS)).load_config()
    swapped = {
        Execute: "autograder.nbgrader.hidden_checks.HiddenChecks",
        OverwriteCells: "autograder.nbgrader.overwrite_cells.OverwriteCellsReadOnce",
        SaveAutoGrades: "autograder.nbgrader.save_grades.SaveAutoGradesAtOnce",
    }
    for steps in ("sanitize_preprocessors", "autograde_preprocessors"):
        default = Autograde.class_traits()[steps].default()
        assert config.Autograde[steps] == [swapped.get(s, s) for s in default]
    from autograder.nbgrader.overwrite_cells import OverwriteCellsReadOnce
    from autograder.nbgrader.save_grades import SaveAutoGradesAtOnce

    assert issubclass(OverwriteCellsReadOnce, OverwriteCells) and issubclass(SaveAutoGradesAtOnce, SaveAutoGrades)
    assert config.GenerateFeedback.preprocessors[0] == "autograder.nbgrader.hide_hidden_tests.HideHiddenTests"
    from autograder.course.due_dates import undated

    assert undated() == []  # each line names the lesson, its file and the setting to add
    assert {lesson.assignment for lesson in LESSONS} <= set(config.Deadlines.due)


@pytest.mark.slow
def test_nbgrader_commands_work_on_the_course_configuration(tmp_path):
    """`db assignment list` and zip_collect of a Canvas zip work in a course set up with the committed configuration.

    The course is the run's prepared one (generate_assignment through nbgrader's API, gradebook included);
    the learner bundle (tests/test_release.py) runs the generate_assignment command, and its notebooks equal these.
    """
    course = prepared_course(tmp_path / "course").root
    shutil.copy(NOTEBOOKS / "nbgrader_config.py", course)  # exactly the committed file

    archive = course / "downloaded" / LESSON1.assignment / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / "submissions.zip", "w") as bundle:
        text = (course / "release" / LESSON1.assignment / LESSON1.notebook).read_text(encoding="utf-8")
        bundle.writestr(f"ada_1001_2001_{LESSON1.notebook}", text)
        bundle.writestr(f"alan_LATE_1002_2002_{Path(LESSON1.notebook).stem}-1.ipynb", text)
    listing = nbgrader(course, "db", "assignment", "list")
    collecting = nbgrader(course, "zip_collect", LESSON1.assignment)
    (code, _, output), (collected, _, log) = finish(listing), finish(collecting)
    assert code == 0, output
    for lesson in LESSONS:
        assert lesson.assignment in output and Path(lesson.notebook).stem in output
    assert collected == 0, log
    for student in ("ada", "alan"):
        assert (course / "submitted" / student / LESSON1.assignment / LESSON1.notebook).is_file(), log


def _handed_in_steps(db_url, nb, overwrite, save, manual):
    """Run ``overwrite`` then ``save`` (OverwriteCells and SaveAutoGrades, or the kit's subclasses) on a hand-in
    of lesson 1 by "ada", one of whose grades an instructor scored by hand before; the notebook and every saved row."""
    from nbgrader.api import Comment, Grade

    notebook = Path(LESSON1.notebook).stem
    with Gradebook(db_url) as gb:
        gb.update_or_create_student("ada")
        gb.add_submission(LESSON1.assignment, "ada")
        gb.find_grade(manual, notebook, LESSON1.assignment, "ada").manual_score = 1.0
        gb.db.commit()
    resources = {
        "nbgrader": {"notebook": notebook, "assignment": LESSON1.assignment, "student": "ada", "db_url": db_url}
    }
    node = nbformat.reads(json.dumps(nb), as_version=4)
    node, resources = overwrite(add_missing_cells=True).preprocess(node, resources)
    node, resources = save().preprocess(node, resources)
    with Gradebook(db_url) as gb:
        rows = sorted(
            (
                kind.__name__,
                row.name,
                getattr(row, "auto_score", None),
                getattr(row, "manual_score", None),
                getattr(row, "needs_manual_grade", None),
                getattr(row, "auto_comment", None),
            )
            for kind in (Grade, Comment)
            for row in gb.db.query(kind)
        )
    written = json.loads(nbformat.writes(node))
    for cell in written["cells"]:
        cell.pop("id", None)  # a grade cell put back gets a new random id
    return written, rows


@pytest.mark.slow
def test_read_once_steps_change_and_save_exactly_what_nbgrader_does(tmp_path):
    """OverwriteCells and SaveAutoGrades, stock and as the course config runs them, on the same hand-in.

    The hand-in deleted a grade cell, changed another's points, edited a locked cell, failed one grade cell
    and left a solution cell untouched; an instructor had scored one cell by hand. The notebook written and
    every grade and comment row saved are the same either way.
    """
    from nbgrader.preprocessors import OverwriteCells, SaveAutoGrades

    from autograder.nbgrader.overwrite_cells import OverwriteCellsReadOnce
    from autograder.nbgrader.save_grades import SaveAutoGradesAtOnce

    course = prepared_course(tmp_path / "course")
    nb = json.loads((course.root / "release" / LESSON1.assignment / LESSON1.notebook).read_text(encoding="utf-8"))
    graded = [c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {}).get("grade")]
    locked = [
        c
        for c in nb["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("locked") and not c["metadata"]["nbgrader"].get("grade")
    ]
    assert len(graded) >= 4 and locked
    nb["cells"].remove(graded[0])
    graded[1]["metadata"]["nbgrader"]["points"] += 5
    locked[0]["source"] = "edited by the learner"
    code = [c for c in graded[1:] if c["cell_type"] == "code"]
    code[0]["outputs"] = [nbformat.v4.new_output("error", ename="AssertionError", evalue="", traceback=[])]
    manual = graded[-1]["metadata"]["nbgrader"]["grade_id"]
    results = []
    for overwrite, save in ((OverwriteCells, SaveAutoGrades), (OverwriteCellsReadOnce, SaveAutoGradesAtOnce)):
        db = tmp_path / f"{save.__name__}.db"
        shutil.copy(course.root / "gradebook.db", db)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # nbgrader's own SQLAlchemy and nbformat warnings, as Course.run hides them
            results.append(_handed_in_steps(f"sqlite:///{db}", nb, overwrite, save, manual))
    (stock_nb, stock_rows), (kit_nb, kit_rows) = results
    assert kit_nb == stock_nb
    assert kit_rows == stock_rows
    assert {row[4] for row in stock_rows if row[0] == "Grade"} == {True, False}  # the hand-scored cell needs review
    assert {row[2] for row in stock_rows if row[0] == "Grade"} >= {0.0}
    assert any(row[5] == "No response." for row in stock_rows)


@pytest.mark.slow
def test_a_new_gradebook_gets_what_nbgrader_alone_gives_it(tmp_path):
    """With the kit's speedups, a new gradebook holds every table and the database version that the
    `alembic heads` command names; a table gone missing is created again when a Gradebook opens."""
    import io
    import sqlite3

    from alembic import command
    from alembic.config import Config
    from nbgrader import api
    from nbgrader.dbutil import _temp_alembic_ini

    from autograder.nbgrader import speedups

    speedups.install()
    printed = io.StringIO()
    with _temp_alembic_ini("sqlite:////tmp/gradebook.db") as ini:
        command.heads(Config(ini, stdout=printed))  # what `alembic -c INI heads`, the command nbgrader runs, prints
    heads = printed.getvalue()
    db = tmp_path / "gradebook.db"

    def tables():
        with sqlite3.connect(db) as connection:
            return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    with Gradebook(f"sqlite:///{db}"):
        pass
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [(heads.split()[0],)]
        connection.execute("DROP TABLE comment")
    assert tables() == set(api.Base.metadata.tables) - {"comment"} | {"alembic_version"}
    with Gradebook(f"sqlite:///{db}", "graphkit"):
        pass
    assert tables() == set(api.Base.metadata.tables) | {"alembic_version"}


def test_gradebooks_reuse_connections_but_never_one_to_a_replaced_file(tmp_path):
    """Gradebooks opened one after another in a process share one connection; a gradebook file replaced (a copy
    renamed over it) or removed since is opened afresh, so a Gradebook always reads the file its URL names now."""
    from sqlalchemy import event

    from autograder.nbgrader import speedups

    speedups.install()
    db, other = tmp_path / "gradebook.db", tmp_path / "other.db"
    url = f"sqlite:///{db}"

    def students(at=url):
        with Gradebook(at) as gradebook:
            return sorted(student.id for student in gradebook.students)

    with Gradebook(f"sqlite:///{other}") as gradebook:
        gradebook.update_or_create_student("bob")
    with Gradebook(url) as gradebook:
        gradebook.update_or_create_student("ada")
        opened = []
        event.listen(gradebook.engine, "connect", lambda *_: opened.append(1))
    for _ in range(5):
        assert students() == ["ada"]
    assert opened == []  # the kept connection every time
    shutil.copy(other, tmp_path / "copy.db")
    (tmp_path / "copy.db").replace(db)
    assert students() == ["bob"]
    assert len(opened) == 1
    db.unlink()
    assert students() == []  # a new, empty gradebook, as nbgrader makes one where none is


def test_the_feedback_exporter_adds_what_nbconverts_soup_pass_adds():
    """Tab stops on the template's cell inputs and outputs and alternative text on every image, as HTMLExporter's
    BeautifulSoup pass adds them, and nothing else: an image's own alt and other tags' classes are left alone."""
    from bs4 import BeautifulSoup

    from autograder.nbgrader.speedups import NO_ALT, accessible

    page = (
        '<div class="jp-Notebook"><div class="jp-Cell-inputWrapper">x</div>'
        '<div class="jp-OutputArea-output jp-RenderedText">y</div><div class="jp-Cell-inputWrapperish">z</div>'
        '<img src="data:image/png;base64,AA=="><img alt="a graph" src="data:image/png;base64,AA=="></div>'
    )
    soup = BeautifulSoup(accessible(page), features="html.parser")
    assert [d.get("tabindex") for d in soup.select("div")] == [None, "0", "0", None]
    assert [img["alt"] for img in soup.select("img")] == [NO_ALT, "a graph"]
