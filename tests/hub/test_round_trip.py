"""nbgrader's exchange round trip through a real JupyterHub, with real accounts, in headless Chromium.

    make hub-e2e        # as root: builds the hub's environment (make hub-env), then runs this file

The hub is started with the project's own configuration (deploy/jupyterhub_config.py, quoted
whole by docs/jupyterhub.md) on 127.0.0.1, from the hub's environment in HUB_ENV, which every
account can read. The test makes, and removes afterwards:

* a group of learners and four system accounts (useradd): an instructor and three learners,
  each learner with a password the hub checks through PAM;
* nbgrader's exchange, a folder with the mode nbgrader's documentation gives it (777), in a
  folder of its own under /tmp.

Then, as a course goes:

1. the instructor puts lesson 1's release notebook (nbgrader's generate_assignment, as `make grade`
   and `make release` build it) in the release/ folder of a course folder in their home, and runs
   `nbgrader release_assignment`;
2. each learner logs in to the hub in Chromium and fetches the lesson from nbgrader's Assignment
   List in JupyterLab. Ada fills in every solution cell in the notebook and submits. Bob submits
   the notebook as fetched, then writes one function and submits again. Carol never submits;
3. the instructor runs `nbgrader collect` (the latest hand-in of each learner), then `make grade`
   grades the collected hand-ins, `make hub-feedback` places the feedback pages, and the
   instructor runs `nbgrader release_feedback`;
4. each learner fetches feedback in the Assignment List and opens it: the page is the one
   `make grade` wrote for them, and no other learner's; the exchange's feedback folder cannot be
   listed by a learner, and Carol gets none.

Late work, a resubmission and a learner who never submits are graded as `make grade` grades them:
lesson 1 is due at the end of yesterday in the course's config, so today's hand-ins are late and
pay the late policy; Bob's second hand-in is the one graded; Carol, with no folder in submitted/,
has no row. Each step's seconds are printed and written to dist/hub/timings.json; screenshots go to
dist/hub/screenshots/ (docs/images/ holds three of them).
"""

import contextlib
import csv
import datetime
import grp
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, prepared_course

pytestmark = pytest.mark.hub

HUB_ENV = Path(os.environ.get("HUB_ENV", "/opt/graphkit-hub"))
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CONFIG = ROOT / "deploy" / "jupyterhub_config.py"
NBGRADER = HUB_ENV / "bin" / "nbgrader"  # the instructor's nbgrader: the hub's environment, read by every account
WORK = ROOT / "dist" / "hub"
SHOTS = WORK / "screenshots"
GROUP = "graphkit-learners"  # deploy/jupyterhub_config.py's default GRAPHKIT_HUB_GROUP
COURSE_ID = "graphkit"  # deploy/nbgrader_config.py
MARK = "graphkit hub round trip"  # the accounts' comment (GECOS): only accounts bearing it are ever removed
INSTRUCTOR = "gk-instructor"
ADA, BOB, CAROL = "gk-ada", "gk-bob", "gk-carol"
LEARNERS = (ADA, BOB, CAROL)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STEP_MS = 60_000  # the longest a click, a page load or a selector may take
SPAWN_MS = 180_000  # the longest a learner's server may take to start after logging in
HUB_START_S = 120  # the longest the hub may take to answer
COMMAND_S = 1200  # the longest one command (make grade, an nbgrader step) may take


# ---------------------------------------------------------------- what the machine must offer


def _why_not():
    """Why this machine cannot run the round trip, or ''."""
    if os.geteuid() != 0:
        return (
            "the hub's round trip creates system accounts and starts JupyterHub as root: run it as root (make hub-e2e)"
        )
    for tool in ("useradd", "userdel", "groupadd", "chpasswd"):
        if not shutil.which(tool):
            return f"no {tool} to create the course's accounts (Debian's package passwd)"
    if not shutil.which("npm"):
        return "no npm: configurable-http-proxy comes from npm (Debian's package npm)"
    if not (HUB_ENV / ".ready").is_file():
        return f"no hub environment at {HUB_ENV}: `make hub-env` builds it (make hub-e2e does)"
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM}: `make hub-e2e` installs Debian's package chromium"
    return ""


# ---------------------------------------------------------------- helpers


class Clock:
    """Seconds per named step, printed and kept for dist/hub/timings.json."""

    def __init__(self):
        self.steps = {}

    @contextlib.contextmanager
    def step(self, name):
        start = time.monotonic()
        yield
        self.steps[name] = round(time.monotonic() - start, 1)
        print(f"[hub] {name}: {self.steps[name]} s", flush=True)


def tail(text, lines=40):
    return "\n".join((text or "").splitlines()[-lines:])


def run(command, cwd, env=None, account=None, timeout=COMMAND_S):
    """Run ``command`` to the end, as root or as ``account``; the CompletedProcess, output merged."""
    kwargs = {}
    if account:
        entry = pwd.getpwnam(account)
        kwargs = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
    try:
        return subprocess.run(
            command,
            cwd=cwd,
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=timeout,
            **kwargs,
        )
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"{' '.join(map(str, command))} did not finish in {timeout} s:\n{err.output or ''}")


def checked(command, cwd, **kwargs):
    done = run(command, cwd, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, command))} exited {done.returncode}:\n{tail(done.stdout)}"
    return done.stdout


def free_port():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pids_of(account):
    found = run(["ps", "-u", account, "-o", "pid="], "/")
    return [int(pid) for pid in found.stdout.split()]


# ---------------------------------------------------------------- the course's people and exchange


@contextlib.contextmanager
def accounts():
    """The group, the instructor and the learners, with fresh passwords; removed afterwards (homes too)."""
    for account in (INSTRUCTOR, *LEARNERS):
        _remove(account)  # an account an interrupted run left behind
    with contextlib.suppress(KeyError):
        grp.getgrnam(GROUP)
        checked(["groupdel", GROUP], "/")
    checked(["groupadd", GROUP], "/")
    passwords = {}
    try:
        checked(["useradd", "--create-home", "--shell", "/bin/bash", "--comment", MARK, INSTRUCTOR], "/")
        for learner in LEARNERS:
            checked(
                ["useradd", "--create-home", "--shell", "/bin/bash", "--comment", MARK, "--groups", GROUP, learner], "/"
            )
            passwords[learner] = secrets.token_urlsafe(18)
        lines = "".join(f"{name}:{password}\n" for name, password in passwords.items())
        subprocess.run(["chpasswd"], input=lines, text=True, check=True)
        yield passwords
    finally:
        for account in (INSTRUCTOR, *LEARNERS):
            _remove(account)
        subprocess.run(["groupdel", GROUP], stderr=subprocess.DEVNULL)


def _remove(account):
    """Remove ``account`` and its home, if this test made it (its comment is MARK); end its processes first."""
    try:
        entry = pwd.getpwnam(account)
    except KeyError:
        return
    assert entry.pw_gecos == MARK, f"an account {account} exists that this test did not make; remove it by hand"
    for pid in pids_of(account):  # servers the hub started for it, should one outlive the hub
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    subprocess.run(["userdel", "--remove", account], stderr=subprocess.DEVNULL)


def as_account(account, exchange):
    """The environment an account's shell would give nbgrader: its home, its name, the hub's environment first."""
    entry = pwd.getpwnam(account)
    return {
        "HOME": entry.pw_dir,
        "USER": account,
        "LOGNAME": account,
        "LANG": "C.UTF-8",
        "PATH": f"{HUB_ENV / 'bin'}:/usr/bin:/bin",
        "GRAPHKIT_EXCHANGE": str(exchange),
    }


# ---------------------------------------------------------------- the hub


@contextlib.contextmanager
def hub(base, exchange):
    """JupyterHub with deploy/jupyterhub_config.py, on free loopback ports; stopped (and its servers) afterwards."""
    state = base / "state"
    state.mkdir(mode=0o700)
    port = free_port()
    env = {
        "PATH": f"{HUB_ENV / 'bin'}:/usr/bin:/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "GRAPHKIT_HUB_STATE": str(state),
        "GRAPHKIT_EXCHANGE": str(exchange),
        "GRAPHKIT_HUB_PORT": str(port),
        "GRAPHKIT_HUB_API_PORT": str(free_port()),
        "GRAPHKIT_HUB_PROXY_API_PORT": str(free_port()),
    }
    log = WORK / "hub.log"
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            [HUB_ENV / "bin" / "jupyterhub", "-f", CONFIG],
            cwd=state,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + HUB_START_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"jupyterhub exited {process.returncode} before answering:\n{tail(log.read_text())}")
            if time.monotonic() > deadline:
                pytest.fail(f"jupyterhub did not answer on {url} within {HUB_START_S} s:\n{tail(log.read_text())}")
            try:
                with urllib.request.urlopen(f"{url}/hub/api", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.5)  # polling a server that is starting: there is no page to wait on yet
        yield url
    finally:
        # SIGTERM: the hub stops the learners' servers and its proxy, then exits.
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # the proxy, should it outlive the hub


# ---------------------------------------------------------------- JupyterLab, as a learner drives it


class Learner:
    """One learner's browser session: logged in to the hub, JupyterLab open."""

    def __init__(self, browser, url, account, password):
        self.account = account
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.context.set_default_timeout(STEP_MS)
        self.page = page = self.context.new_page()
        page.goto(f"{url}/hub/login")
        page.fill("#username_input", account)
        page.fill("#password_input", password)
        page.click("#login_submit")
        page.wait_for_url(re.compile(rf"/user/{re.escape(account)}/lab"), timeout=SPAWN_MS)
        self.menu_item("Nbgrader").wait_for(timeout=SPAWN_MS)
        self.lab = page.url.split("/lab")[0]

    def menu_item(self, label):
        return self.page.locator(".lm-MenuBar-itemLabel").filter(has_text=re.compile(rf"^{re.escape(label)}$"))

    def menu(self, top, label):
        self.menu_item(top).click()
        self.page.locator(".lm-Menu-itemLabel").filter(has_text=re.compile(rf"^{re.escape(label)}$")).click()

    def shot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=SHOTS / f"{self.account}-{name}.png")

    # -- nbgrader's Assignment List

    def assignments(self):
        """Open the Assignment List (Nbgrader → Assignment List) in a fresh JupyterLab (no tab of an earlier step
        open), and wait until its lists have loaded."""
        self.page.goto(f"{self.lab}/lab?reset")
        self.menu_item("Nbgrader").wait_for()
        self.menu("Nbgrader", "Assignment List")
        for name in ("released", "fetched", "submitted"):
            self.page.locator(f"#{name}_assignments_list_loading").wait_for(state="hidden")

    def row(self, listing, assignment):
        return self.page.locator(f"#{listing}_assignments_list > div").filter(has_text=assignment)

    def press(self, listing, assignment, button, then):
        """Press ``button`` in ``assignment``'s row of the ``listing`` list; wait for ``then`` to show."""
        self.row(listing, assignment).locator("button").filter(has_text=re.compile(rf"^{button}$")).click()
        then.wait_for()

    def fetch(self, assignment):
        self.press(
            "released", assignment, "Fetch", self.row("fetched", assignment).locator("button", has_text="Submit")
        )

    def submit(self, assignment, times):
        """Submit, and wait until the submitted list holds ``times`` hand-ins of ``assignment``."""
        self.row("fetched", assignment).locator("button").filter(has_text=re.compile(r"^Submit$")).click()
        self.page.wait_for_function(  # the submitted list shows one timestamp per hand-in
            """([selector, count]) => {
                const list = document.querySelector(selector);
                const times = list === null ? [] : list.innerText.match(/\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d/g);
                return list !== null && (times || []).length >= count;
            }""",
            arg=["#submitted_assignments_list", times],
        )
        self.page.locator("#submitted_assignments_list button").filter(
            has_text=re.compile(r"^Fetch Feedback$")
        ).first.wait_for()

    def fetch_feedback(self, assignment):
        rows = self.page.locator("#submitted_assignments_list > div").filter(has_text=assignment)
        rows.locator("button").filter(has_text=re.compile(r"^Fetch Feedback$")).first.click()
        self.page.locator("#submitted_assignments_list").get_by_text("(view feedback)").first.wait_for()

    # -- writing in the notebook

    def write(self, path, cells):
        """Open ``path`` in JupyterLab, replace each cell {index: source} by typing it in, save, close."""
        page = self.page
        page.goto(f"{self.lab}/lab/tree/{path}?reset")
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current").filter(has_text=path.split("/")[-1])
        tab.wait_for()
        panel = f"#{tab.evaluate('tab => tab.dataset.id')}"
        widgets = page.locator(f"{panel} .jp-Notebook .jp-Cell")
        widgets.first.wait_for()
        for index, source in sorted(cells.items()):
            editor = widgets.nth(index).locator(".cm-content")
            editor.scroll_into_view_if_needed()
            editor.click()
            page.keyboard.press("Control+a")
            page.keyboard.press("Delete")
            page.keyboard.insert_text(source)
        self.menu("File", "Save Notebook")
        page.locator(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty").wait_for(state="detached")
        return panel

    def close(self):
        self.context.close()


def solution_cells(notebook, learner_notebook):
    """{index: source} of every solution cell of the release notebook, as ``learner_notebook`` (filled) has it."""
    return {
        index: "".join(filled["source"]) if isinstance(filled["source"], list) else filled["source"]
        for index, (cell, filled) in enumerate(zip(notebook["cells"], learner_notebook["cells"]))
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution")
    }


def source_of(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


# ---------------------------------------------------------------- the round trip


def test_round_trip():
    why = _why_not()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    from autograder.course.lessons import LESSONS
    from tests.e2e.conftest import solved

    lesson = LESSONS[0]
    assignment, notebook_name = lesson.assignment, lesson.notebook
    stem = Path(notebook_name).stem
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()  # the day the hand-ins are made
    clock = Clock()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    base = Path(tempfile.mkdtemp(prefix="graphkit-hub-"))
    base.chmod(0o755)  # every account reaches the exchange inside it
    exchange = base / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)  # nbgrader's documented exchange: every account reads and writes it
    try:
        with accounts() as passwords, hub(base, exchange) as url:
            instructor = pwd.getpwnam(INSTRUCTOR)
            course = Path(instructor.pw_dir) / COURSE_ID
            staff = as_account(INSTRUCTOR, exchange)

            # 1. The instructor releases lesson 1 through the exchange.
            with clock.step("the release notebooks (nbgrader's generate_assignment, as make grade runs it)"):
                released = prepared_course(base / "prepared", pictures=False).release(lesson).parent
            with clock.step("nbgrader release_assignment"):
                shutil.copytree(released, course / "release" / assignment)  # the checkout may be root's alone
                checked(["chown", "-R", f"{INSTRUCTOR}:{INSTRUCTOR}", course], "/")
                checked([NBGRADER, "release_assignment", assignment], course, env=staff, account=INSTRUCTOR)
            release_nb = json.loads((released / notebook_name).read_text(encoding="utf-8"))
            answers = solution_cells(release_nb, json.loads(solved(released / notebook_name, lesson)))
            evaluate_cell = next(i for i, src in answers.items() if src.lstrip().startswith("def evaluate"))

            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
                try:
                    # 2. Each learner logs in, fetches the lesson, writes and submits (Carol only fetches).
                    people = {}
                    for account in LEARNERS:
                        with clock.step(f"{account}: log in, server started, JupyterLab open"):
                            people[account] = Learner(browser, url, account, passwords[account])
                        running = run(["ps", "-u", account, "-o", "args="], "/").stdout
                        assert "jupyterhub-singleuser" in running, (
                            f"{account}'s JupyterLab does not run as {account}; their processes:\n{running}"
                        )
                        with clock.step(f"{account}: fetch from the Assignment List"):
                            people[account].assignments()
                            if account == ADA:
                                people[account].shot("assignment-list")
                            people[account].fetch(assignment)
                    where = f"{assignment}/{notebook_name}"
                    with clock.step(f"{ADA}: write every solution cell, save, submit"):
                        people[ADA].write(where, answers)
                        people[ADA].shot("notebook-written")
                        people[ADA].assignments()
                        people[ADA].submit(assignment, 1)
                        people[ADA].shot("submitted")
                    with clock.step(f"{BOB}: submit as fetched, write evaluate, submit again"):
                        people[BOB].assignments()
                        people[BOB].submit(assignment, 1)
                        people[BOB].write(where, {evaluate_cell: answers[evaluate_cell]})
                        people[BOB].assignments()
                        people[BOB].submit(assignment, 2)
                    saved = json.loads((Path(pwd.getpwnam(ADA).pw_dir) / where).read_text(encoding="utf-8"))
                    for index, source in answers.items():
                        assert source_of(saved["cells"][index]).strip() == source.strip(), (
                            f"cell {index} of Ada's saved notebook is not what was typed:\n"
                            f"{source_of(saved['cells'][index])}"
                        )

                    # 3. The instructor collects; make grade grades; the feedback is released.
                    with clock.step("nbgrader collect"):
                        collected = checked([NBGRADER, "collect", assignment], course, env=staff, account=INSTRUCTOR)
                    assert sorted(p.name for p in (course / "submitted").iterdir()) == [ADA, BOB], collected
                    out = base / "out"
                    with clock.step("make grade (the collected hand-ins)"):
                        graded = checked(
                            ["make", "grade", f"SUBMISSIONS={course / 'submitted'}", f"OUT={out}"],
                            ROOT,
                            env=dict(os.environ, GRAPHKIT_DEMO_DAY=today),
                        )
                    with clock.step("make hub-feedback and nbgrader release_feedback"):
                        placed = checked(["make", "hub-feedback", f"COURSE={course}", f"OUT={out}"], ROOT)
                        checked(["chown", "-R", f"{INSTRUCTOR}:{INSTRUCTOR}", course / "feedback"], "/")
                        checked([NBGRADER, "release_feedback", assignment], course, env=staff, account=INSTRUCTOR)
                    assert "feedback placed for 2 hand-in(s)" in placed, placed

                    # Late work, the resubmission and the learner who never submitted, as make grade grades them.
                    rows = {
                        row["student_id"]: row
                        for row in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))
                        if row["assignment"] == assignment
                    }
                    assert sorted(rows) == [ADA, BOB], f"grades.csv rows: {sorted(rows)}"
                    assert float(rows[ADA]["raw_score"]) == float(rows[ADA]["max_score"]), rows[ADA]
                    assert float(rows[ADA]["late_submission_penalty"]) > 0, rows[ADA]
                    assert 0 < float(rows[BOB]["raw_score"]) < float(rows[BOB]["max_score"]), (
                        f"Bob's second hand-in (evaluate written) should be the one graded: {rows[BOB]}"
                    )
                    assert f"late: {ADA} handed in {assignment}" in graded, tail(graded)

                    # 4. Each learner fetches their feedback, and sees their own page only.
                    pages = {}
                    for account in (ADA, BOB):
                        with clock.step(f"{account}: fetch feedback, open it"):
                            person = people[account]
                            person.assignments()
                            person.fetch_feedback(assignment)
                            if account == ADA:
                                person.shot("feedback-fetched")
                            home = Path(pwd.getpwnam(account).pw_dir)
                            fetched = sorted((home / assignment / "feedback").glob(f"*/{stem}.html"))
                            assert len(fetched) == 1, f"{account} fetched {fetched}"
                            pages[account] = fetched[0].read_bytes()
                            relative = fetched[0].relative_to(home)
                            person.page.goto(f"{person.lab}/files/{relative}")
                            person.page.get_by_text(re.compile(r"Score|score")).first.wait_for()
                            person.shot("feedback-page")
                    for account in (ADA, BOB):
                        own = (out / "feedback" / account / assignment / f"{stem}.html").read_bytes()
                        assert pages[account] == own, (
                            f"{account}'s fetched page is not the one make grade wrote for them"
                        )
                    assert pages[ADA] != pages[BOB]
                    listing = run(["ls", exchange / COURSE_ID / "feedback"], "/", account=CAROL)
                    assert listing.returncode != 0, f"a learner could list the exchange's feedback:\n{listing.stdout}"
                    with clock.step(f"{CAROL}: the Assignment List, no hand-in and no feedback"):
                        people[CAROL].assignments()
                        assert people[CAROL].page.locator("#submitted_assignments_list button").count() == 0
                        assert not (Path(pwd.getpwnam(CAROL).pw_dir) / assignment / "feedback").exists()
                    for person in people.values():
                        person.close()
                finally:
                    browser.close()
    finally:
        (WORK / "timings.json").write_text(json.dumps(clock.steps, indent=1) + "\n", encoding="utf-8")
        shutil.rmtree(base, ignore_errors=True)
