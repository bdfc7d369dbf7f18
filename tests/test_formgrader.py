"""`make formgrader` is quiet and names learners; `make roster` reads a roster CSV into the gradebook.

The formgrader is started for real once (slow): no banner about a missing exchange, no
"Unwritable directory" lines, learners' names from the roster, and one SIGINT (Ctrl+C)
stops it. tests/e2e/ opens it in a browser.
"""

import json
import os
import pty
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from autograder.nbgrader import env
from autograder.pipeline import formgrader, roster
from tests.conftest import ROOT

ROSTER = "id,first_name,last_name,email\nada,Ada,Lovelace,ada@example.org\nbob,,Babbage,\n"


@pytest.fixture(scope="module")
def graded_template(tmp_path_factory):
    """OUT as the formgrader needs it: the course config and a gradebook that knows ada (graded, no name yet) and a
    lesson."""
    from nbgrader.api import Gradebook

    out = tmp_path_factory.mktemp("formgrader") / "out"
    out.mkdir()
    shutil.copy(ROOT / "notebooks" / "nbgrader_config.py", out / "nbgrader_config.py")
    (out / "source" / "lesson_one").mkdir(parents=True)  # the formgrader lists the assignments of source/
    (out / "source" / "lesson_one" / "one.ipynb").write_text(
        json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8"
    )
    with env.alembic_on_path(), Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gradebook:
        gradebook.add_student("ada")
        gradebook.update_or_create_assignment("lesson_one")
    return out


@pytest.fixture
def graded_folder(graded_template, tmp_path):
    """A copy of graded_template for one test: the gradebook is made once per module."""
    return shutil.copytree(graded_template, tmp_path / "out")


def students(out):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gradebook:
        return {s.id: (s.first_name, s.last_name, s.email) for s in gradebook.students}


@pytest.mark.slow
def test_a_roster_names_graded_learners_and_adds_the_others(graded_folder, tmp_path, capsys):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    assert roster.main([str(path), "--out", str(graded_folder)]) == 0
    assert "2 learner(s) named" in capsys.readouterr().out
    assert students(graded_folder) == {"ada": ("Ada", "Lovelace", "ada@example.org"), "bob": (None, "Babbage", None)}
    path.write_text("student_id,first_name\nada,\nbob,Charles\n", encoding="utf-8")  # an empty cell keeps the name
    assert roster.main([str(path), "--out", str(graded_folder)]) == 0
    assert students(graded_folder) == {
        "ada": ("Ada", "Lovelace", "ada@example.org"),
        "bob": ("Charles", "Babbage", None),
    }


BAD_ROSTERS = {
    "no id column": ("first_name,last_name\nAda,Lovelace\n", "a column id"),
    "unknown column": ("id,nickname\nada,A\n", "a column id"),
    "a column twice": ("id,email,email\nada,a,b\n", "each once"),
    "empty": ("", "is empty"),
    "blank id": ("id,first_name\n,Ada\n", "line 2: no id"),
    "a path as id": ("id\n../ada\n", "../ada is not a student id"),
    "a glob as id": ("id\n*\n", "* is not a student id (a letter or digit, then up to 63"),
    "a formula as id": ("id\n=1+2\n", "=1+2 is not a student id"),
    "a line break in an id": ('id\n"ad\na"\n', "'ad\\na' is not a student id"),
    "markup in a name": ("id,first_name\nada,<img src=x onerror=alert(1)>\n", "holds one of"),
    "a script in a name": ("id,last_name\nada,Lovelace</a><script>x()</script>\n", "holds one of"),
    "a template in a name": ("id,last_name\nada,{{7*7}}\n", "holds one of"),
    "a control character in a name": ("id,first_name\nada,A\x1b[31mda\n", "not printable"),
    "a right-to-left override in a name": ("id,first_name\nada,A\u202eda\n", "not printable"),
    "a formula as a name": ("id,last_name\nada,=HYPERLINK(1)\n", "as a spreadsheet formula does"),
    "a name too long": ("id,last_name\nada," + "L" * 101 + "\n", "longer than 100 characters"),
    "the same learner twice": ("id\nada\nbob\nada\n", "line 4: 'ada' again (first on line 2)"),
    "an unquoted comma": ("id,last_name\nada,Lovelace, Ada\n", "quote a name"),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(BAD_ROSTERS))
def test_a_bad_roster_is_named_with_its_line_and_fix_and_nothing_is_written(kind, graded_folder, tmp_path, capsys):
    text, says = BAD_ROSTERS[kind]
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    assert roster.main([str(path), "--out", str(graded_folder)]) == roster.EXIT_BAD_ROSTER
    err = capsys.readouterr().err
    assert str(path) in err and says in err, err
    assert students(graded_folder) == {"ada": (None, None, None)}


def test_a_roster_needs_a_graded_folder_and_text(tmp_path, capsys):
    path = tmp_path / "roster.csv"
    path.write_bytes(b"id\n\xff\xfe\n")
    assert roster.main([str(path), "--out", str(tmp_path)]) == roster.EXIT_BAD_ROSTER
    assert "grade first with `make grade`" in capsys.readouterr().err
    with pytest.raises(roster.RosterError, match="not UTF-8"):
        roster.read(path)


def test_the_formgrader_command_is_quiet_and_stops_on_one_ctrl_c(tmp_path):
    line = formgrader.command(tmp_path, "127.0.0.1", 8888, "t")
    assert f"--Exchange.root={tmp_path / formgrader.EXCHANGE}" in line
    assert "--ServerApp.answer_yes=True" in line and "--FormgradeExtension.debug=False" in line
    assert "--ServerApp.log_level=WARN" in line
    assert f"--ServerApp.jpserver_extensions={formgrader.PAGES}=True" in line
    said = formgrader.banner("127.0.0.1", 8888, "t", unnamed=2, out="out")
    assert "make roster CSV=roster.csv OUT=out" in said
    assert "roster" not in formgrader.banner("127.0.0.1", 8888, "t")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode("utf-8")


@pytest.mark.slow
def test_the_formgrader_shows_roster_names_without_noise_and_stops_on_one_sigint(graded_folder, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    assert roster.main([str(path), "--out", str(graded_folder)]) == 0
    port, token = free_port(), "formgrader-test-token"
    log = tmp_path / "formgrader.log"
    # A terminal on its input, as when an instructor starts it: Jupyter takes Ctrl+C itself only from a terminal
    # (without one, Python's KeyboardInterrupt lands wherever the server happens to be, which may swallow it).
    terminal, terminal_end = pty.openpty()
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "autograder.pipeline.formgrader", "--out", str(graded_folder), "--port", str(port)],
            cwd=ROOT,
            env=dict(os.environ, JUPYTER_TOKEN=token),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=terminal_end,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        for _attempt in range(240):  # the server takes seconds to start
            assert process.poll() is None, log.read_text()
            try:
                get(f"{base}/api/status?token={token}")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.25)
        page = get(f"{base}/formgrader/manage_assignments?token={token}")
        assert "manage_assignments" in page or "Manage Assignments" in page
        assert "warning-exchange" not in page and "does not exist" not in page
        assert 'id="graphkit-note"' in page and "make grade SUBMISSIONS=DIR" in page  # what the kit uses, said first
        assignments = json.loads(get(f"{base}/formgrader/api/assignments?token={token}"))
        assert assignments and {(a["status"], a["releaseable"]) for a in assignments} == {("released", False)}, (
            "no lesson shows as a draft, none offers Release or Collect"
        )
        named = {
            s["id"]: (s["first_name"], s["last_name"])
            for s in json.loads(get(f"{base}/formgrader/api/students?token={token}"))
        }
        assert named == {"ada": ("Ada", "Lovelace"), "bob": (None, "Babbage")}
        assert "StudentUI.prototype.render" in get(f"{base}/formgrader/manage_students?token={token}"), (
            "a learner without a name shows by id, not 'None, None'"
        )
        process.send_signal(signal.SIGINT)  # Ctrl+C, once
        try:  # a guard against a hang, not a measure: a busy machine stops the server's extensions slowly
            process.wait(timeout=180)
        except subprocess.TimeoutExpired:
            pytest.fail(f"one SIGINT did not stop the formgrader within 180 s; its log:\n{log.read_text()[-3000:]}")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(terminal)
        os.close(terminal_end)
    printed = log.read_text(encoding="utf-8")
    assert f"formgrader: {base}/formgrader?token={token}" in printed
    assert "Unwritable" not in printed and "not serializable" not in printed, printed
    assert "[I " not in printed, "only warnings and errors are logged"


HOSTILE_NAMES = {
    "last_name": 'Lovelace<img src=x onerror="window.__pwned = 1">',
    "first_name": "<script>window.__pwned = 2</script>Ada",
    "student": "ada",
}


def submission_page(preprocessors):
    """nbgrader's submission page for an empty notebook, as its formgrader renders it, for a learner with
    HOSTILE_NAMES."""
    import nbformat
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    config = Config()
    config.HTMLExporter.preprocessors = preprocessors
    exporter = HTMLExporter(config=config, template_name="formgrade", extra_template_basedirs=[handlers.template_path])
    resources = {
        "assignment_id": "lesson_one",
        "notebook_id": "graphs",
        "submission_id": "1",
        "index": 0,
        "total": 1,
        "base_url": "",
        "notebook_path": "",
        **HOSTILE_NAMES,
    }
    return exporter.from_notebook_node(nbformat.v4.new_notebook(), resources=resources)[0]


def test_the_submission_page_shows_names_as_text():
    """With the step `make formgrader` adds, a name holding markup shows as its characters; without it, it is live
    markup."""
    assert f"--HTMLExporter.preprocessors={formgrader.NAMES_ESCAPED}" in formgrader.command(ROOT, "127.0.0.1", 1, "t")
    raw, escaped = submission_page([]), submission_page([formgrader.NAMES_ESCAPED])
    assert (
        'onerror="window.__pwned = 1" src="x"/>' in raw and "<script>window.__pwned = 2</script>" in raw
    )  # nbgrader's own
    assert "<img" not in escaped and "<script>window.__pwned" not in escaped
    assert (
        'Lovelace&lt;img src=x onerror="window.__pwned = 1"&gt;, &lt;script&gt;window.__pwned = 2&lt;/script&gt;Ada'
        in escaped
    )
