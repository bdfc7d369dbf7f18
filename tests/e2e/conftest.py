"""What the browser tests share: the learner's checkout of the bundle, its JupyterLab, and headless Chromium.

These tests are collected only when the run selects them by marker (``-m e2e``, as
`make e2e` runs them), so `make test` never starts a browser or a Jupyter server.

Everything they leave behind goes under dist/e2e/ (never committed):

    dist/e2e/learner/       the learner's checkout of the bundle; its .venv/ is kept between runs
                            and rebuilt by the bundle's own Makefile when requirements.txt changes
    dist/e2e/screenshots/   what the browser showed, one PNG per step, rewritten on every run
    dist/e2e/lab.log        what `make lab` printed
    dist/e2e/formgrader.log what `make formgrader` printed
"""

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

WORK = ROOT / "dist" / "e2e"
SHOTS = WORK / "screenshots"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
# Chromium's background services stay off: the tests need no network beyond 127.0.0.1.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Planted in a learner's markdown cell: if the feedback page ran either, window.__pwned would be set.
PLANTED = (
    '<script>window.__pwned = "script"; document.title = "pwned";</script>\n\n'
    "<img src=\"no-such-image.png\" onerror=\"window.__pwned = 'img onerror'; document.title = 'pwned'\">\n"
)
STEP_MS = 60_000  # the longest a click, a page load or a selector may take
SERVER_START_S = 180  # the longest a Jupyter server may take to answer after `make lab` or `make formgrader`
INSTALL_S = 900  # the longest the bundle's first `make` may take (it creates .venv/)


def pytest_ignore_collect(collection_path, config):
    """Leave this folder's tests out of every run whose marker expression does not name e2e."""
    if collection_path.name == "conftest.py":
        return None
    return None if "e2e" in (config.getoption("markexpr") or "") else True


# ---------------------------------------------------------------- helpers


def run(command, cwd, timeout, env=None):
    """Run ``command`` to the end; the CompletedProcess, stdout and stderr merged into .stdout."""
    try:
        return subprocess.run(
            command, cwd=cwd, env=env, timeout=timeout, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"{' '.join(command)} (in {cwd}) did not finish in {timeout} s:\n{err.output or ''}")


def tail(text, lines=40):
    return "\n".join((text or "").splitlines()[-lines:])


def sync_tree(src: Path, dest: Path, keep=(".venv",)):
    """Make ``dest`` hold exactly the files of ``src``, leaving the folders named in ``keep`` alone.

    A file whose content is unchanged is not rewritten, so its modification time, which the
    bundle's Makefile compares with .venv/.ready, moves only when the file really changed.
    """
    wanted = {path.relative_to(src) for path in src.rglob("*") if path.is_file()}
    dest.mkdir(parents=True, exist_ok=True)
    folders = []
    for folder, dirs, files in os.walk(dest):
        here = Path(folder).relative_to(dest)
        dirs[:] = [name for name in dirs if here.parts or name not in keep]
        folders += [Path(folder) / name for name in dirs]
        for name in files:
            if here / name not in wanted:
                (Path(folder) / name).unlink()
    for folder in reversed(folders):  # deepest first
        if not any(folder.iterdir()):
            folder.rmdir()
    for rel in sorted(wanted):
        source, target = src / rel, dest / rel
        if target.is_file() and target.read_bytes() == source.read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def solved(release_path, lesson):
    """The release notebook with every solution cell filled in the way a learner who got everything right would:
    the reference's code and the lesson's answers (the demo cohort's "ada")."""
    from autograder.course.paths import NOTEBOOKS
    from graphcourse import demo

    release = json.loads(release_path.read_text(encoding="utf-8"))
    source = json.loads(lesson.notebook_path(NOTEBOOKS).read_text(encoding="utf-8"))
    learner = demo.Learner("solver", "fills every solution cell with the reference code and the lesson's answers")
    return demo.dumps(demo.filled(release, source, learner))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(process, seconds=30):
    """End ``process`` and everything in its process group: SIGTERM, then SIGKILL if it lingers."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(seconds)


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def shots():
    """dist/e2e/screenshots/, emptied: one PNG per step of this run."""
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    return SHOTS


@pytest.fixture(scope="session")
def bundle():
    """The learner bundle as an instructor builds it: `make release` writes dist/learner/."""
    built = run(["make", "release"], ROOT, 600)
    assert built.returncode == 0, f"`make release` failed:\n{tail(built.stdout)}"
    return ROOT / "dist" / "learner"


@pytest.fixture(scope="session")
def learner(bundle):
    """The learner's checkout of the bundle, set up the way its README says: the first `make` target installs.

    The first target a learner runs is `make check`: it creates .venv/ from the bundle's
    requirements.txt, then the public tests fail on the untouched stub.
    """
    checkout = WORK / "learner"
    sync_tree(bundle, checkout)
    checked = run(["make", "check", "TASK=evaluate"], checkout, INSTALL_S)
    assert (checkout / ".venv" / ".ready").is_file(), (
        f"the bundle's `make check` did not install:\n{tail(checked.stdout)}"
    )
    assert checked.returncode != 0 and " not written" in checked.stdout, (
        f"`make check TASK=evaluate` should fail on the stub (exit {checked.returncode}):\n{tail(checked.stdout)}"
    )
    return checkout


@dataclass
class Lab:
    url: str  # http://127.0.0.1:PORT
    token: str
    root: Path  # the folder JupyterLab serves: the checkout's notebooks/
    log: Path

    def open_url(self, path):
        return f"{self.url}/lab/tree/{path}?reset&token={self.token}"


@contextlib.contextmanager
def serve(command, cwd, env, url, token, log):
    """Start a Jupyter server with ``command`` (a make target) in its own process group; stop it afterwards.

    Yields once ``url`` answers with ``token``. Stopping asks the server to shut down, as
    JupyterLab's File → Shut Down does (kernels first), then signals what is left.
    """
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    what = " ".join(command)
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"`{what}` exited {process.returncode} before answering:\n{tail(log.read_text())}")
            if time.monotonic() > deadline:
                pytest.fail(f"`{what}` did not answer on {url} within {SERVER_START_S} s:\n{tail(log.read_text())}")
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.5)  # polling a server that is starting: there is no page to wait on yet
        yield process
    finally:
        try:
            shutdown = urllib.request.Request(
                f"{url}/api/shutdown", method="POST", headers={"Authorization": f"token {token}"}
            )
            urllib.request.urlopen(shutdown, timeout=10).close()
            process.wait(30)
        except (OSError, subprocess.TimeoutExpired):
            pass
        stop(process)


@pytest.fixture(scope="session")
def lab(learner, tmp_path_factory):
    """JupyterLab as `make lab` starts it in the learner's checkout, on a loopback port with a token.

    Jupyter's settings come from a fresh config folder: where to listen, the token, no
    browser of its own, and no question about fetching Jupyter's news.
    """
    config = tmp_path_factory.mktemp("jupyter_config")
    port, token = free_port(), secrets.token_hex(16)
    server = {"ip": "127.0.0.1", "port": port, "port_retries": 0, "open_browser": False}
    (config / "jupyter_server_config.json").write_text(
        json.dumps({"ServerApp": server, "IdentityProvider": {"token": token}}), encoding="utf-8"
    )
    news = config / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(config / "runtime"))
    found = Lab(f"http://127.0.0.1:{port}", token, learner / "notebooks", WORK / "lab.log")
    with serve(["make", "lab"], learner, env, found.url, token, found.log):
        yield found


@pytest.fixture(scope="session")
def graded(bundle, tmp_path_factory):
    """`make grade` on one hand-in: lesson 1 solved, with a script and an onerror handler planted in a markdown cell."""
    from autograder.course.lessons import LESSONS
    from graphcourse import demo

    lesson = LESSONS[0]
    tmp = tmp_path_factory.mktemp("graded")
    nb = json.loads(solved(bundle / "notebooks" / lesson.assignment / lesson.notebook, lesson))
    nb["cells"].insert(1, {"cell_type": "markdown", "id": "planted-markup", "metadata": {}, "source": PLANTED})
    handed_in = tmp / "submitted" / "mallory" / lesson.assignment / lesson.notebook
    handed_in.parent.mkdir(parents=True)
    handed_in.write_text(demo.dumps(nb), encoding="utf-8")
    out = tmp / "out"
    done = run(["make", "grade", f"OUT={out}", f"SUBMISSIONS={tmp / 'submitted'}"], ROOT, INSTALL_S)
    assert done.returncode == 0, f"`make grade` failed:\n{tail(done.stdout)}"
    return out


HOSTILE_LEARNERS = ("mallory", "trudy")  # trudy's autograded copy is put back unsanitized by the test: its control


@pytest.fixture(scope="session")
def hostile_graded(tmp_path_factory):
    """`make grade` on blank hand-ins of lesson 1 that forge every grade cell around an invisible full-page overlay.

    The hostile cells (tests/hostile_handins/formgrader_markup.json) come before the grade
    cells: overlays, a fake log-in link, tracking images and protocol-relative links, then
    a ``nbgrader_cell`` per grade cell, nested, each holding the grade id (as a heading's
    text and as an id attribute), around Bootstrap's invisible ``modal fade show`` with
    nbgrader's ``full-credit`` class.
    """
    from autograder.course.lessons import LESSONS
    from tests.conftest import prepared_course
    from tests.test_markup_policy import hostile_notebook

    lesson = LESSONS[0]
    tmp = tmp_path_factory.mktemp("hostile_graded")
    out = tmp / "out"
    course = prepared_course(out)  # OUT as `make grade` prepares it: the release notebook is the blank hand-in
    nb = hostile_notebook(json.loads(course.release(lesson).read_text(encoding="utf-8")))
    for student in HOSTILE_LEARNERS:
        handed_in = tmp / "submitted" / student / lesson.assignment / lesson.notebook
        handed_in.parent.mkdir(parents=True)
        handed_in.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    done = run(["make", "grade", f"OUT={out}", f"SUBMISSIONS={tmp / 'submitted'}"], ROOT, INSTALL_S)
    assert done.returncode == 0, f"`make grade` failed:\n{tail(done.stdout)}"
    return out, lesson, nb


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """Headless Chromium (Debian's), driven by Playwright, with a fresh profile."""
    if not CHROMIUM.is_file():
        pytest.fail(
            f"no Chromium at {CHROMIUM}: `make e2e` installs Debian's package chromium when run as root, "
            "or set CHROMIUM to a Chromium binary"
        )
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium_profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        context.set_default_timeout(STEP_MS)
        context.set_default_navigation_timeout(STEP_MS)
        try:
            yield context
        finally:
            context.close()
