"""End to end, in a real browser: the learner bundle in JupyterLab, nbgrader's Validate button, a feedback page.

    make e2e            # installs Chromium and Playwright if missing, then runs this file

For each lesson, as a learner: open the release notebook in the JupyterLab that the
bundle's `make lab` starts, run every code cell, and see every visible test cell fail on
the stubs; press Validate and see it list them. Then, with every solution cell filled in
(the reference code and the lesson's answers), restart the kernel and run all cells, see
none fail, and press Validate again for nbgrader's "Success!"; the bundle's `make check
IMPL=notebooks` then passes on what JupyterLab saved. Last, as an instructor: `make grade`
grades a notebook with a script planted in a markdown cell, whose feedback page must not
run it, and `make formgrader` shows that hand-in in nbgrader's formgrader. Then a blank
hand-in that forges every grade cell around an invisible full-page overlay is opened in
the formgrader and clicked all over: no grade changes (and on a control copy left
unsanitized, the same clicks do change them). Screenshots of every step are in
dist/e2e/screenshots/.
"""

import json
import os
import re
import secrets
import time
import urllib.request
from types import SimpleNamespace

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from autograder.course.lessons import LESSONS
from tests.conftest import ROOT
from tests.e2e.conftest import INSTALL_S, SHOTS, STEP_MS, WORK, free_port, run, serve, solved, tail

pytestmark = pytest.mark.e2e

RUN_ALL_MS = 180_000  # the longest a whole notebook may take to run
VALIDATE_MS = 180_000  # the longest nbgrader's validation may take
MENU_MS = 15_000  # the longest an open menu may take to show its items
STARTED_MS = 10_000  # the longest a run may take to show [*] before it counts as dropped
RUN_TRIES = 5
ERROR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'


# ---------------------------------------------------------------- notebooks and cells


def nbgrader_meta(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def is_test_cell(cell):
    meta = nbgrader_meta(cell)
    return cell["cell_type"] == "code" and meta.get("grade") and not meta.get("solution")


def errors_of(cell):
    return [f"{o.get('ename')}: {o.get('evalue')}" for o in cell.get("outputs", []) if o.get("output_type") == "error"]


# ---------------------------------------------------------------- JupyterLab, as a learner drives it


class Notebook:
    """One notebook open in its own browser tab: the page, and the CSS selector of its panel."""

    def __init__(self, browser, lab, path):
        self.page = page = browser.new_page()
        self.name = path
        page.goto(lab.open_url(path))  # ?reset: no tab of an earlier page comes back
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current").filter(has_text=path.split("/")[-1])
        tab.wait_for()
        self.panel = f"#{tab.evaluate('tab => tab.dataset.id')}"
        self.cells = page.locator(f"{self.panel} .jp-Notebook .jp-Cell")
        self.cells.first.wait_for()
        self.page.locator(f'{self.panel} .jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for()
        self.wait_for_kernel(lab, path)

    def wait_for_kernel(self, lab, path):
        """Wait until the server holds a session for this notebook whose kernel is up and idle."""
        deadline = time.monotonic() + STEP_MS / 1000
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"{lab.url}/api/sessions?token={lab.token}", timeout=10) as answer:
                sessions = json.load(answer)
            if any(
                s.get("path", "").endswith(path) and (s.get("kernel") or {}).get("execution_state") == "idle"
                for s in sessions
            ):
                return
            time.sleep(0.25)  # polling the server's REST API: no page element reports this
        self.fail(f"no idle kernel for the notebook within {STEP_MS // 1000} s", "kernel")

    def shot(self, path):
        self.page.screenshot(path=path)
        return path

    def fail(self, message, what):
        """Stop the test with ``message`` and a screenshot of the page as it is."""
        shot = self.shot(SHOTS / f"failed-{what}.png")
        raise AssertionError(f"{self.name}: {message} (screenshot: {shot})")

    def run_each_cell(self, cells):
        """Run the code cells one at a time (select it, then the toolbar's ▶), so a failing cell does not stop the rest.

        The toolbar button acts on the active cell wherever the keyboard focus happens to be,
        which a key press does not while JupyterLab is still settling after it opened.
        """
        run = self.page.locator(f'{self.panel} .jp-NotebookPanel-toolbar [data-jp-item-name="run"] [data-command]')
        for index, cell in enumerate(cells):
            if cell["cell_type"] != "code":
                continue
            widget = self.cells.nth(index)
            prompt = widget.locator(".jp-InputPrompt")
            for _ in range(RUN_TRIES):
                prompt.click()
                try:
                    expect(widget).to_have_class(re.compile(r"\bjp-mod-active\b"), timeout=STEP_MS)
                except AssertionError:
                    self.fail(f"clicking cell {index} did not select it", "select-cell")
                run.click()
                # A run shows [*] at once. While its kernel connection is still coming up, JupyterLab
                # drops a run without a word and the prompt stays [ ]: then run the cell again.
                try:
                    prompt.filter(has_text=re.compile(r"^\s*\[(\*|\d+)\]:\s*$")).wait_for(timeout=STARTED_MS)
                    break
                except PlaywrightTimeout:
                    continue
            else:
                self.fail(f"cell {index} never started running ({RUN_TRIES} tries)", "start-cell")
            try:
                prompt.filter(has_text=re.compile(r"^\s*\[\d+\]:\s*$")).wait_for(timeout=RUN_ALL_MS)
            except PlaywrightTimeout:
                self.fail(f"cell {index} did not finish running; its prompt reads {prompt.inner_text()!r}", "run-cell")

    def menu(self, top, label):
        """Click the menu bar's ``top`` menu, then its item labelled ``label``, as a person would."""
        page = self.page
        page.locator(".lm-MenuBar-itemLabel").filter(has_text=re.compile(rf"^{re.escape(top)}$")).click()
        item = page.locator(".lm-Menu-itemLabel").filter(has_text=re.compile(rf"^{re.escape(label)}$"))
        try:
            item.wait_for(timeout=MENU_MS)
        except PlaywrightTimeout:
            labels = [text for text in page.locator(".lm-Menu-itemLabel").all_inner_texts() if text.strip()]
            self.fail(f"no item {label!r} in JupyterLab's {top} menu; it holds {labels}", "menu")
        item.click()

    def restart_and_run_all(self):
        """Kernel → Restart Kernel and Run All Cells…, as the lesson asks before hand-in; wait until it has finished."""
        self.menu("Kernel", "Restart Kernel and Run All Cells…")
        self.page.locator(".jp-Dialog .jp-mod-accept").click()
        try:
            self.page.wait_for_function(
                """([panel, error]) => {
                    const root = document.querySelector(panel);
                    const prompts = [...root.querySelectorAll(".jp-CodeCell .jp-InputPrompt")]
                        .map(p => p.textContent.trim());
                    const idle = root.querySelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]') !== null;
                    const all = prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p));
                    const stopped = idle && !prompts.some(p => p.includes("*")) && root.querySelector(error) !== null;
                    return all || stopped;
                }""",
                arg=[self.panel, ERROR],
                timeout=RUN_ALL_MS,
            )
        except PlaywrightTimeout:
            self.fail(f"Restart Kernel and Run All Cells did not finish within {RUN_ALL_MS // 1000} s", "run-all")

    def save(self):
        """File → Save Notebook; wait until the tab no longer shows unsaved changes."""
        self.menu("File", "Save Notebook")
        self.page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").wait_for(state="detached")

    def validate(self, shot):
        """Press nbgrader's Validate button; return (outcome class, dialog text) and close the dialog."""
        self.page.locator(f"{self.panel} .validate-button").click()
        message = self.page.locator("#validation-message")
        try:
            message.wait_for(timeout=VALIDATE_MS)
        except PlaywrightTimeout:
            self.fail(f"Validate showed no result within {VALIDATE_MS // 1000} s", "validate")
        self.shot(shot)
        outcome = next((c for c in message.get_attribute("class").split() if c.startswith("validation-")), "")
        text = message.inner_text()
        self.page.locator(".jp-Dialog .jp-mod-accept").click()
        self.page.locator(".jp-Dialog").wait_for(state="detached")
        return outcome, text

    def show_cell(self, index, shot):
        """Scroll cell ``index`` into view and take a screenshot once the browser has painted it."""
        widget = self.cells.nth(index)
        widget.scroll_into_view_if_needed()
        expect(widget.locator(".jp-InputArea-editor")).to_be_in_viewport()
        # Off-screen cells are painted lazily (CSS content-visibility): two frames later this one is.
        self.page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        self.shot(shot)

    def close(self):
        self.page.close()


# ---------------------------------------------------------------- tests


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.assignment for lesson in LESSONS])
def test_release_notebook_fails_on_stubs_and_passes_once_solved(lab, browser, bundle, shots, lesson):
    """The visible test cells fail on the stubs and pass on the solved notebook, in JupyterLab and under Validate."""
    path = f"{lesson.assignment}/{lesson.notebook}"
    on_disk = lab.root / lesson.assignment / lesson.notebook
    release = bundle / "notebooks" / lesson.assignment / lesson.notebook
    cells = json.loads(release.read_text(encoding="utf-8"))["cells"]
    tests = [i for i, cell in enumerate(cells) if is_test_cell(cell)]
    assert tests, f"{path}: the release notebook has no test cells"
    name = lesson.assignment

    # The notebook as released: every solution cell raises, every test cell fails.
    notebook = Notebook(browser, lab, path)
    notebook.run_each_cell(cells)
    notebook.save()
    ran = json.loads(on_disk.read_text(encoding="utf-8"))["cells"]
    passing = [i for i in tests if not errors_of(ran[i])]
    assert not passing, f"{path}: on the stubs these test cells raised nothing: {passing}"
    # An answer cell raises as it runs; a function cell only defines a function that raises when called.
    answers = [
        i
        for i, c in enumerate(ran)
        if nbgrader_meta(c).get("solution")
        and c["cell_type"] == "code"
        and "\nraise NotImplementedError(" in "\n" + "".join(c["source"])
    ]
    unstubbed = [i for i in answers if not any("NotImplementedError" in e for e in errors_of(ran[i]))]
    assert answers or lesson.assignment != "lesson1_graphs", f"{path}: no answer cell found"
    assert not unstubbed, f"{path}: these answer cells did not raise NotImplementedError: {unstubbed}"
    notebook.show_cell(tests[0], shots / f"{name}-1-stubs-run.png")
    outcome, text = notebook.validate(shots / f"{name}-2-stubs-validated.png")
    assert outcome == "validation-failed", f"{path}: Validate on the stubs gave {outcome!r}:\n{text[:2000]}"
    assert text.count("The following cell failed") == len(tests), (
        f"{path}: Validate should list each of the {len(tests)} test cells as failed:\n{text[:3000]}"
    )
    notebook.close()

    # Every solution cell filled in: Restart Kernel and Run All Cells, as the lesson asks, then Validate.
    on_disk.write_text(solved(release, lesson), encoding="utf-8")
    notebook = Notebook(browser, lab, path)
    notebook.restart_and_run_all()
    notebook.save()
    ran = json.loads(on_disk.read_text(encoding="utf-8"))["cells"]
    failed = {i: errors_of(c) for i, c in enumerate(ran) if errors_of(c)}
    assert not failed, f"{path}: cells failed on the solved notebook: {failed}"
    unrun = [i for i, c in enumerate(ran) if c["cell_type"] == "code" and c.get("execution_count") is None]
    assert not unrun, f"{path}: Run All left these code cells unrun: {unrun}"
    notebook.show_cell(tests[-1], shots / f"{name}-3-solved-run.png")
    outcome, text = notebook.validate(shots / f"{name}-4-solved-validated.png")
    assert outcome == "validation-success" and "Success!" in text, (
        f"{path}: Validate on the solved notebook gave {outcome!r}:\n{text[:3000]}"
    )
    notebook.close()


def test_public_tests_pass_on_the_solved_notebooks(lab):
    """`make check IMPL=notebooks` in the learner's checkout passes on the notebooks saved from JupyterLab above."""
    for lesson in LESSONS:
        saved = json.loads((lab.root / lesson.assignment / lesson.notebook).read_text(encoding="utf-8"))
        assert all(
            not nbgrader_meta(c).get("solution") or "NotImplementedError" not in "".join(c["source"])
            for c in saved["cells"]
        ), f"{lesson.notebook} is not solved: run this whole file, not this test alone"
    checked = run(["make", "check", "IMPL=notebooks"], lab.root.parent, INSTALL_S)
    assert checked.returncode == 0, (
        f"`make check IMPL=notebooks` failed on the solved notebooks:\n{tail(checked.stdout)}"
    )


def test_feedback_page_runs_no_script_from_a_learner_notebook(browser, graded, shots):
    """A script or an onerror handler in a learner's markdown cell stays inert in the feedback page `make grade`
    writes."""
    lesson = LESSONS[0]
    feedback = graded / "feedback" / "mallory" / lesson.assignment / lesson.notebook.replace(".ipynb", ".html")
    assert feedback.is_file(), f"`make grade` wrote no {feedback}"
    page = browser.new_page()
    page.goto(feedback.as_uri(), wait_until="load")
    page.wait_for_function("() => [...document.images].every(image => image.complete)")
    page.screenshot(path=shots / "feedback-planted-markup.png")
    ran = page.evaluate("() => window.__pwned === undefined ? null : String(window.__pwned)")
    title = page.title()
    text = page.locator("body").inner_text()
    page.close()
    assert ran is None and "pwned" not in title, (
        f"{feedback.name}: markup from the learner's markdown cell ran in the feedback page "
        f"(window.__pwned = {ran!r}, title {title!r}); "
        "feedback HTML must not carry a learner's scripts or event handlers"
    )
    assert "Score:" in text, f"{feedback.name} does not look like a feedback page:\n{text[:1000]}"


def test_formgrader_opens_the_graded_cohort(browser, graded, shots):
    """`make formgrader OUT=...` serves nbgrader's formgrader on that folder's gradebook: the hand-in is listed."""
    port, token = free_port(), secrets.token_hex(16)
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, JUPYTER_TOKEN=token)
    log = WORK / "formgrader.log"
    with serve(["make", "formgrader", f"OUT={graded}", f"PORT={port}"], ROOT, env, url, token, log):
        printed = log.read_text(encoding="utf-8")
        assert f"formgrader: {url}/formgrader?token={token}" in printed, f"no address printed:\n{tail(printed)}"
        page = browser.new_page()
        page.goto(f"{url}/formgrader?token={token}")  # the printed address: it also leaves the login cookie
        page.get_by_text(LESSONS[0].assignment, exact=True).first.wait_for()
        page.screenshot(path=shots / "formgrader-assignments.png")
        assert page.locator("#graphkit-note").is_visible(), "the assignments page says what the kit uses"
        lesson_row = page.locator("tr", has_text=LESSONS[0].assignment).first.inner_text()
        assert "released" in lesson_row and "draft" not in lesson_row, lesson_row
        page.goto(f"{url}/formgrader/manage_students")
        student = page.locator("tr", has_text="mallory")
        try:
            student.first.wait_for()
        except PlaywrightTimeout:
            page.screenshot(path=shots / "failed-formgrader.png")
            raise AssertionError(
                f"the formgrader lists no learner mallory:\n{page.locator('body').inner_text()[:2000]}"
            ) from None
        page.screenshot(path=shots / "formgrader-students.png")
        row = student.first.inner_text()
        page.close()
    assert re.search(r"\d", row), f"mallory's row shows no score: {row!r}"
    assert row.split()[0] == "mallory" and "None, None" not in row, f"a learner without a name shows by id: {row!r}"


# ---------------------------------------------------------------- the formgrader, against a hostile hand-in

GRID = (7, 5)  # clicks across and down each screenful of the page
OWN_CONTROLS = "nav, button, input, textarea, select, .help"  # the page's own: an instructor's click there is meant


def gradebook_grades(out, lesson, student):
    """(submission notebook id, {grade id: (auto score, manual score, extra credit)}) of a learner's hand-in."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(lesson.notebook[:-6], lesson.assignment, student)
        return notebook.id, {g.name: (g.auto_score, g.manual_score, g.extra_credit) for g in notebook.grades}


def open_submission(page, url):
    page.goto(url)
    page.wait_for_function("() => window.formgrader && formgrader.grades && formgrader.grades.loaded === true")


def click_across(page, url):
    """Click a grid of points over every screenful of the page, as stray clicks would; return how many were made.

    A point where the page's own controls are on top (its navigation bar, nbgrader's
    buttons and score boxes) is left out. A click that leaves the page (a link) is
    followed by opening the page again.
    """
    clicks = 0
    height = page.evaluate("() => document.documentElement.scrollHeight")
    width, screen = page.viewport_size["width"], page.viewport_size["height"]
    for top in range(0, height, screen):
        for row in range(GRID[1]):
            for column in range(GRID[0]):
                x, y = (column + 0.5) * width / GRID[0], (row + 0.5) * screen / GRID[1]
                page.evaluate("top => window.scrollTo(0, top)", top)
                own = page.evaluate(
                    "([x, y, own]) => { const e = document.elementFromPoint(x, y); "
                    "return e === null || e.closest(own) !== null; }",
                    [x, y, OWN_CONTROLS],
                )
                if own:
                    continue
                page.mouse.click(x, y)
                clicks += 1
                if page.url.split("#")[0] != url:
                    open_submission(page, url)
    page.wait_for_function("() => window.jQuery !== undefined && jQuery.active === 0")  # every save has answered
    return clicks


def local_only(base, fetched):
    """A route handler that lets through what goes to ``base`` and refuses the rest, noting it in ``fetched``."""

    def handle(route, request):
        if request.url.startswith(base + "/"):
            route.continue_()
        else:
            fetched.append(request.url)
            route.abort()

    return handle


def test_formgrader_clicks_change_no_grade_of_a_hostile_hand_in(browser, hostile_graded, shots):
    """Clicks all over the formgrader page of a hand-in that forges every grade cell under an invisible overlay change
    no grade.

    trudy, the control, hands in the same notebook; her autograded copy is put back as she
    wrote it, unsanitized, before her page is opened: there the same clicks must give her
    full marks, which shows that the clicks reach live markup. Nothing is fetched from
    another host for mallory's page but the template's own MathJax.
    """
    out, lesson, raw = hostile_graded
    (out / "autograded" / "trudy" / lesson.assignment / lesson.notebook).write_text(json.dumps(raw), encoding="utf-8")
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, JUPYTER_TOKEN=token)
    with serve(["make", "formgrader", f"OUT={out}", f"PORT={port}"], ROOT, env, base, token, WORK / "formgrader.log"):
        found = {}
        for student in ("mallory", "trudy"):
            submission, before = gradebook_grades(out, lesson, student)
            page = browser.new_page()
            fetched = []
            page.route("**/*", local_only(base, fetched))
            page.goto(f"{base}/formgrader?token={token}")  # leaves the login cookie
            url = f"{base}/formgrader/submissions/{submission}/"
            open_submission(page, url)
            page.screenshot(path=shots / f"formgrader-hostile-{student}.png", full_page=True)
            clicks = click_across(page, url)
            page.close()
            after = gradebook_grades(out, lesson, student)[1]
            found[student] = SimpleNamespace(before=before, after=after, clicks=clicks, fetched=fetched)
    mallory, trudy = found["mallory"], found["trudy"]
    assert trudy.after != trudy.before and all(manual is not None for _a, manual, _e in trudy.after.values()), (
        f"the control: {trudy.clicks} clicks on trudy's unsanitized copy should have given every grade cell a manual "
        f"score through the forged cells: {trudy.after}"
    )
    assert any("tracker.example" in url for url in trudy.fetched), trudy.fetched
    assert mallory.clicks > 0 and mallory.after == mallory.before, (
        f"{mallory.clicks} clicks on mallory's page changed grades: {mallory.before} -> {mallory.after}"
    )
    assert all("cdnjs.cloudflare.com" in url for url in mallory.fetched), (
        f"mallory's page fetched from other hosts: {mallory.fetched}"
    )
