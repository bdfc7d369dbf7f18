"""The formgrader, in Chromium, against a learner's names that hold markup: they show as text, and nothing runs.

nbgrader's submission page writes a learner's first and last name without escaping (on the instructor's
Jupyter origin); `make formgrader` adds a step that escapes them (autograder/nbgrader/formgrader_names.py),
and `make roster` refuses such names. These names are put in the gradebook directly, as nbgrader's own
``db student import`` or its students dialog would.
"""

import os
import secrets

import pytest

from tests.conftest import ROOT
from tests.e2e.conftest import WORK, free_port, serve
from tests.e2e.test_browser import gradebook_grades

pytestmark = pytest.mark.e2e

# As nbgrader's own `db student import` or its students dialog would store them (make roster refuses both): a
# script, and an image whose error handler presses every "Full credit" button of the page it runs in.
HOSTILE_NAMES = {
    "first_name": '<img src="x" onerror="window.__pwned = 1; '
    "document.querySelectorAll('.full-credit').forEach(b => b.click())\">",
    "last_name": "<script>window.__pwned = 2; document.title = 'pwned'</script>Lovelace",
}


def test_formgrader_shows_hostile_names_as_text(browser, hostile_graded, shots):
    """A learner's names holding markup show as their characters on every formgrader page that names them.

    The submission page (nbgrader's template writes names raw; `make formgrader` escapes them), the students
    page, the learner's own page and the notebook's list of submissions (nbgrader's scripts set them as text):
    none has an element or a script of the name's, none ran, and the learner's grades are as before.
    """
    from nbgrader.api import Gradebook

    out, lesson, _raw = hostile_graded
    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gradebook:
        gradebook.update_or_create_student("mallory", **HOSTILE_NAMES)
    submission, before = gradebook_grades(out, lesson, "mallory")
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, JUPYTER_TOKEN=token)
    pages = {
        "submission": f"/formgrader/submissions/{submission}/",
        "students": "/formgrader/manage_students",
        "learner": "/formgrader/manage_students/mallory",
        "submissions": f"/formgrader/gradebook/{lesson.assignment}/{lesson.notebook[:-6]}",
    }
    found = {}
    with serve(["make", "formgrader", f"OUT={out}", f"PORT={port}"], ROOT, env, base, token, WORK / "formgrader.log"):
        page = browser.new_page()
        page.goto(f"{base}/formgrader?token={token}")  # leaves the login cookie
        for name, path in pages.items():
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_function("() => window.jQuery === undefined || jQuery.active === 0")
            page.screenshot(path=shots / f"formgrader-hostile-names-{name}.png", full_page=True)
            found[name] = page.evaluate("""() => ({
                ran: window.__pwned === undefined ? null : String(window.__pwned),
                title: document.title,
                images: document.querySelectorAll('img[src="x"]').length,
                scripts: [...document.scripts].filter(s => s.textContent.includes('__pwned')).length,
                shown: document.body.textContent.includes('<script>window.__pwned = 2'),
            })""")
        page.close()
    after = gradebook_grades(out, lesson, "mallory")[1]
    for name, seen in found.items():
        assert seen["ran"] is None and "pwned" not in seen["title"], (name, seen)
        assert seen["images"] == 0 and seen["scripts"] == 0, (name, seen)
    assert found["submission"]["shown"] and found["students"]["shown"], found  # the name, as text
    assert after == before, f"the names' markup changed mallory's grades: {before} -> {after}"
