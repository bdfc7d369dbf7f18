"""Hostile submissions earn exactly the points their EXPECTED says, and leave nothing behind.

Every file in tests/hostile/ is a complete submission whose docstring names its attack and whose
EXPECTED literal gives the points it must earn per function ("full" or 0 mostly): honest parts earn theirs, attacks
earn 0. Optional literals: CHECKS = "all" (grade on every check; otherwise the two long-graph
families are left out, which no other attack needs and which cost ~10 s per submission) or CHECKS =
"mini" (the first check of each of those families: for an attack that plays out alike on every call,
a crash, a timeout or a restart each time, so more calls only repeat it), NEEDS =
"full" (the attack is only kept out by the full sandbox: namespaces, private root, own uid),
KNOWN_HOLE (a hole this suite found whose fix belongs outside the sandbox: the test is a strict
xfail until it is fixed), LIMITS (keyword arguments of the sandbox's Limits, for an attack on the
time limits that plays out the same against smaller ones).

The files are graded once per session, four at a time in worker processes (their time goes mostly
to waiting for timeouts and restarts); each worker checks
right after a file's grade that no process carrying the file's marker survives, that the
sandbox folders are gone and that no marker file was written anywhere it can see.
"""

import ast
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

from autograder.authoring.stubs import stub_source
from autograder.course.lessons import functions, module_of
from autograder.course.paths import REFERENCE
from autograder.grading.runner import grade, warm
from autograder.sandbox import isolation, isolation_report
from autograder.sandbox.limits import Limits
from graphcourse import checks as check_table, zoo
from solutions import graph as reference
from tests.conftest import ROOT
from tests.hostile.shared import load  # a hostile file is read after the shared honest code

HOSTILE = Path(__file__).resolve().parent / "hostile"
# The hostile files are versions of lessons 1 and 2's module, graph.py, graded on its functions' checks.
FUNCTIONS = tuple(f for f in functions() if module_of(f) == "graph")
MARKER = "graphkit-hostile-"  # hostile files name their processes and files MARKER + stem
HEAVY = ("deep_graph", "linear_time")
SLOW_FIRST = ("sleep_every_call", "infinite_loop", "stop_reading", "close_reply_pipe", "sleep_at_import")
FALLBACK = ("honest_types", "reply_fd_forgery", "json_forgery", "exit_in_call")  # safe to run without isolation
FALLBACK_UNPRIVILEGED = FALLBACK + ("memory_bomb", "setsid_escape")
ALL_CHECKS = [c for c in check_table.all_checks() if c.function in FUNCTIONS]
LIGHT = [c for c in ALL_CHECKS if c.family not in HEAVY]
MINI = list({c.family: c for c in reversed(LIGHT)}.values())[::-1]  # the first check of each light family
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
FULL = {f: sum(c.points for c in ALL_CHECKS if c.function == f) for f in FUNCTIONS}


@dataclass(frozen=True)
class Hostile:
    stem: str
    doc: str
    expected: dict
    checks: str  # "all" or "light"
    needs: str  # "full" or ""
    known_hole: str
    ports: tuple
    limits: Limits  # the sandbox's limits for this file: the kit's own unless LIMITS scales them

    @property
    def path(self):
        return HOSTILE / f"{self.stem}.py"


def _hostile(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    meta = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in ("EXPECTED", "CHECKS", "NEEDS", "KNOWN_HOLE", "PORTS", "LIMITS"):
                meta[node.targets[0].id] = ast.literal_eval(node.value)
    return Hostile(
        stem=path.stem,
        doc=(ast.get_docstring(tree) or "").strip(),
        # "full" is full marks on that function, whatever the course's checks add up to; else points (0 mostly)
        expected={f: FULL[f] if points == "full" else points for f, points in meta.get("EXPECTED", {}).items()},
        checks=meta.get("CHECKS", "light"),
        needs=meta.get("NEEDS", ""),
        known_hole=meta.get("KNOWN_HOLE", ""),
        ports=tuple(meta.get("PORTS", ())),
        limits=Limits(**meta.get("LIMITS", {})),
    )


HOSTILES = {h.stem: h for h in map(_hostile, sorted(HOSTILE.glob("*.py")))}
STEMS = sorted(HOSTILES)


def checks_for(hostile):
    return {"all": ALL_CHECKS, "mini": MINI}.get(hostile.checks, LIGHT)


def expected_points(hostile, checks):
    """EXPECTED on the checks actually run: a function with full marks earns all of its points there."""
    run = {f: sum(c.points for c in checks if c.function == f) for f in FUNCTIONS}
    return {f: run[f] if hostile.expected[f] == FULL[f] else hostile.expected[f] for f in FUNCTIONS}


def points_by_function(result):
    points = dict.fromkeys(FUNCTIONS, 0.0)
    for r in result.results:
        points[r.check.function] += r.score
    return points


# ---------------------------------------------------------------- what a grade may leave behind
def survivors(marker, wait=5.0):
    """Processes whose command line carries `marker`, after giving dying ones `wait` seconds to go."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != os.getpid():
                try:
                    cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                except OSError:
                    continue
                if marker.encode() in cmdline:
                    found.append(entry + ": " + cmdline.replace(b"\0", b" ").decode(errors="replace"))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def marker_files(marker):
    """Files named with `marker` in the shared temporary folders and anywhere in the repository."""
    found = []
    for folder in ("/tmp", "/var/tmp", "/dev/shm", "/"):
        try:
            found += [os.path.join(folder, n) for n in os.listdir(folder) if marker in n]
        except OSError:
            pass
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in (".git", ".venv", "node_modules")]
        found += [os.path.join(folder, n) for n in files + subfolders if marker in n]
    return found


def git_status():
    done = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else None


@contextmanager
def recorded_sandbox_folders():
    """Collect the private folders the sandbox creates while the block runs."""
    made, real = [], tempfile.mkdtemp

    def recording(*args, **kwargs):
        path = real(*args, **kwargs)
        if str(kwargs.get("prefix", "")).startswith("graphkit-sandbox-"):
            made.append(path)
        return path

    tempfile.mkdtemp = recording
    try:
        yield made
    finally:
        tempfile.mkdtemp = real


# ---------------------------------------------------------------- per-file surroundings
class Oracle(threading.Thread):
    """A helper on 127.0.0.1 that would answer users_of for anyone who reaches it; it counts who does."""

    def __init__(self, ports):
        super().__init__(daemon=True)
        self.server, self.port, self.connections, self.stopped = None, None, 0, False
        for port in ports:
            try:
                self.server = socket.create_server(("127.0.0.1", port))
                self.port = port
                break
            except OSError:
                continue

    def run(self):
        if self.server is None:
            return
        self.server.settimeout(0.2)
        while not self.stopped:
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            with connection:
                data = b""
                while not data.endswith(b"\n"):
                    part = connection.recv(65536)
                    if not part:
                        break
                    data += part
                try:
                    asked = json.loads(data)
                    graph = [(n, op, list(i)) for n, op, i in asked["graph"]]
                    connection.sendall(json.dumps(reference.users_of(graph, asked["name"])).encode() + b"\n")
                except (ValueError, KeyError, TypeError, OSError):
                    pass

    def stop(self):
        self.stopped = True
        self.join(timeout=2)
        if self.server is not None:
            self.server.close()


LEAKY_ENV = {
    "NBGRADER_COURSE_ID": "graphkit",
    "PYTEST_ADDOPTS": "-x",
    "PYTHONPATH": str(ROOT),
    "PYTHONSTARTUP": str(ROOT / "conftest.py"),
    "GRAPHKIT_SECRET": "answers",
    "HYPOTHESIS_PROFILE": "kit",
    "VIRTUAL_ENV": str(ROOT / ".venv"),
    "JUPYTER_PATH": str(ROOT),
}


@contextmanager
def surroundings(hostile):
    """What a file's attack looks for: leaky environment variables, a helper on 127.0.0.1, a gradebook."""
    extra = {}
    saved = {key: os.environ.get(key) for key in LEAKY_ENV}
    os.environ.update(LEAKY_ENV)  # every file runs with them: none may reach the child
    oracle = Oracle(hostile.ports) if hostile.ports else None
    if oracle:
        oracle.start()
    book_folder = tempfile.mkdtemp(prefix="graphkit-gradebook-")
    os.chmod(book_folder, 0o755)
    book = Path(book_folder) / "gradebook.db"
    book.write_bytes(b"SQLite format 3\0 a gradebook nobody may touch")
    os.chmod(book, 0o666)
    try:
        yield extra
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if oracle:
            oracle.stop()
            extra["oracle_port"], extra["oracle_connections"] = oracle.port, oracle.connections
        extra["gradebook_changed"] = book.read_bytes() != b"SQLite format 3\0 a gradebook nobody may touch"
        book.unlink()
        os.rmdir(book_folder)


def grade_hostile(stem):
    """Grade one hostile file in this process; return plain data about its grade and what it left behind."""
    hostile = HOSTILES[stem]
    checks = checks_for(hostile)
    if hostile.needs == "full" and isolation.probe()[0] != "full":
        return {"stem": stem, "skipped": isolation_report.warning()}
    started = time.monotonic()
    result, error = None, ""
    with recorded_sandbox_folders() as made, surroundings(hostile) as extra:
        try:
            result = grade(load(hostile.path), checks=checks, limits=hostile.limits)
        except Exception:  # noqa: BLE001 - a crash of the grader is the finding: report it in the test
            error = traceback.format_exc()
    seconds = time.monotonic() - started
    return {
        "stem": stem,
        "error": error,
        "seconds": seconds,
        "points": points_by_function(result) if result else {},
        "expected": expected_points(hostile, checks),
        "failures": {r.check.id: r.failure.summary for r in result.results if r.failure} if result else {},
        "load_errors": result.load_errors if result else [],
        "output": result.output if result else "",
        "survivors": survivors(MARKER + stem),
        "folders_left": [f for f in made if os.path.exists(f)],
        "sandboxes": len(made),
        "marker_files": marker_files(MARKER + stem),
        **extra,
    }


@lru_cache(maxsize=1)
def hostile_grades():
    """Every hostile file graded once, slowest first, four at a time (most of their time is spent waiting)."""
    order = [s for s in SLOW_FIRST if s in HOSTILES] + [s for s in STEMS if s not in SLOW_FIRST]
    status_before = git_status()
    warm(ALL_CHECKS)  # once, before the workers fork, as make grade does: the checks of graph.py's functions
    with ProcessPoolExecutor(max_workers=4, mp_context=multiprocessing.get_context("fork")) as pool:
        grades = {g["stem"]: g for g in pool.map(grade_hostile, order)}
    return grades, status_before, git_status()


def describe(result):
    lines = [f"points {result['points']} expected {result['expected']} in {result['seconds']:.1f} s"]
    lines += [f"  {check_id}: {summary}" for check_id, summary in result["failures"].items()]
    lines += [f"  load error: {error}" for error in result["load_errors"]]
    lines.append(f"  output: {result['output'][:500]!r}")
    return "\n".join(lines)


# ---------------------------------------------------------------- the tests
def test_hostile_files_are_well_formed():
    """At least 22 hostile files, each with a one-line docstring and an EXPECTED that the checks run can pay."""
    assert len(HOSTILES) >= 22
    for hostile in HOSTILES.values():
        assert hostile.doc and "\n" not in hostile.doc, f"{hostile.stem}: needs a one-line docstring"
        assert set(hostile.expected) == set(FUNCTIONS), f"{hostile.stem}: EXPECTED must name {FUNCTIONS}"
        assert all(0 <= hostile.expected[f] <= FULL[f] for f in FUNCTIONS), hostile.stem
        assert hostile.checks in ("all", "light", "mini") and hostile.needs in ("full", ""), hostile.stem
        if hostile.checks != "all":  # full marks or nothing: partial points would depend on the checks left out
            assert all(hostile.expected[f] in (0, FULL[f]) for f in FUNCTIONS), hostile.stem


PARAMS = [
    pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=HOSTILES[s].known_hole))
    if HOSTILES[s].known_hole
    else s
    for s in STEMS
]

# What some attacks would leave in their grade or surroundings if they got through.
AFTERMATH = {
    "network_localhost": lambda r: r.get("oracle_port") is None or r["oracle_connections"] == 0,
    "read_solutions": lambda r: "read_solutions: found []" in r["output"] and not r["gradebook_changed"],
    "write_outside": lambda r: "write_outside: wrote []" in r["output"],
    "env_probe": lambda r: "env_probe: leaked []" in r["output"],
    "huge_stdout": lambda r: len(r["output"]) < 40_000 and "more bytes of output not kept" in r["output"],
    "giant_names": lambda r: (
        all(len(s) <= 600 for s in r["failures"].values())
        and len(r["output"]) < 40_000
        and any("more than 10,000 characters" in s or "what this call can need" in s for s in r["failures"].values())
    ),
    "exit_at_import": lambda r: "exited while loading" in str(r["load_errors"]),
    "sleep_at_import": lambda r: "longer than" in str(r["load_errors"]) and r["seconds"] < 30,
    "infinite_loop": lambda r: r["seconds"] < 90,
    "sleep_every_call": lambda r: r["seconds"] < 80 and any("out of time" in s for s in r["failures"].values()),
    "fork_cpu_hidden": lambda r: any(c.startswith("linear_time/") and "took" in s for c, s in r["failures"].items()),
    "fork_flood": lambda r: "sleeping children" in r["output"],
    "system_exit": lambda r: "SystemExit" in str(r["load_errors"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("stem", PARAMS, ids=STEMS)
def test_hostile_file_earns_exactly_expected(stem):
    """The file earns exactly its EXPECTED points per function, never crashes the grader, and leaves nothing behind."""
    result = hostile_grades()[0][stem]
    if "skipped" in result:
        pytest.skip(f"needs the full sandbox: {result['skipped']}")
    assert not result["error"], f"the grader crashed:\n{result['error']}"
    assert result["points"] == result["expected"], describe(result)
    assert not result["survivors"], f"processes outlived grading: {result['survivors']}"
    assert not result["folders_left"], f"sandbox folders left behind: {result['folders_left']}"
    assert not result["marker_files"], f"files written outside the sandbox: {result['marker_files']}"
    assert not result.get("gradebook_changed"), "the gradebook was written to"
    assert AFTERMATH.get(stem, lambda r: True)(result), describe(result)


@pytest.mark.slow
def test_hostile_files_leave_the_repository_unchanged():
    """After every hostile file has been graded, `git status` of the repository is what it was before."""
    _grades, before, after = hostile_grades()
    if before is None:
        pytest.skip("not a git checkout")
    assert after == before


def _write_zoo_sources(folder):
    """The reference, one correct zoo style and one buggy zoo entry, as module files in `folder`."""
    reference_source = REFERENCE.read_text()
    stub = stub_source(reference_source)
    entries = zoo.entries()
    correct = next(e for e in entries if e.kind == "correct")
    buggy = next(
        (e for e in entries if e.name == "buggy_assign_fan_out"), next(e for e in entries if e.kind == "buggy")
    )
    paths = {"reference": folder / "reference.py"}
    paths["reference"].write_text(reference_source)
    for entry in (correct, buggy):
        paths[entry.name] = folder / f"{entry.name}.py"
        paths[entry.name].write_text(zoo.source(entry, reference_source, stub))
    return paths


def per_check(result):
    return {r.check.id: r.score for r in result.results}


@pytest.mark.slow
def test_mixed_batch_grades_honest_submissions_as_when_alone(tmp_path):
    """Hostile files interleaved with the reference and two zoo entries: the honest ones score as when graded alone, and
    nothing is left behind."""
    honest = _write_zoo_sources(tmp_path)
    alone = {name: per_check(grade(load(path), checks=LIGHT)) for name, path in honest.items()}
    # The hostile files only need to run between the honest ones (their points are the per-file test's
    # business), so they are graded on the first check of each family: fewer crashes and restarts to wait for.
    hostile = ["fork_flood", "setsid_escape", "reply_fd_forgery", "exit_in_call", "memory_bomb", "json_forgery"]
    if isolation.probe()[0] == "full":
        hostile.append("write_outside")
    names = list(honest)
    batch = [hostile[0], names[0], hostile[1], hostile[2], names[1], hostile[3], hostile[4], names[2], *hostile[5:]]
    before = git_status()
    with recorded_sandbox_folders() as made:
        for name in batch:
            if name in honest:
                result = grade(load(honest[name]), checks=LIGHT)
                assert per_check(result) == alone[name], f"{name} scored differently after hostile submissions"
            else:
                result = grade(load(HOSTILES[name].path), checks=MINI)
                assert points_by_function(result) == expected_points(HOSTILES[name], MINI), name
    left = {name: survivors(MARKER + name) for name in hostile}
    assert not any(left.values()), f"processes outlived grading: {left}"
    assert made and not [f for f in made if os.path.exists(f)], "sandbox folders were left behind"
    assert not [f for name in hostile for f in marker_files(MARKER + name)]
    assert git_status() == before


FALLBACK_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
sys.dont_write_bytecode = True
from graphcourse import checks
from autograder.grading.runner import grade
from autograder.sandbox import isolation
from tests.hostile.shared import load  # a hostile file is read after the shared honest code
light = [c for c in checks.all_checks() if c.family not in {heavy!r} and c.function in {functions!r}]
light = list({{c.family: c for c in reversed(light)}}.values())[::-1]  # the first check of each family
out = {{"level": isolation.probe()[0], "uid": __import__("os").getuid(), "points": {{}}}}
for stem in sys.argv[1:]:
    result = grade(load({hostile!r} + "/" + stem + ".py"), checks=light)
    points = dict.fromkeys({functions!r}, 0.0)
    for r in result.results:
        points[r.check.function] += r.score
    out["points"][stem] = points
print("RESULT " + json.dumps(out))
"""


def _run_fallback(prefix, python, stems, env, cwd):
    script = FALLBACK_SCRIPT.format(root=str(ROOT), heavy=HEAVY, hostile=str(HOSTILE), functions=FUNCTIONS)
    return subprocess.Popen(
        [*prefix, python, "-c", script, *stems],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _fallback_result(proc):
    out, err = proc.communicate(timeout=300)
    line = next((line for line in out.splitlines() if line.startswith("RESULT ")), None)
    return (json.loads(line[len("RESULT ") :]) if line else None), err


def _unprivileged_python(env, cwd):
    """An interpreter uid 65534 can run with the kit's packages importable: (python, env), or (None, reason).

    The venv's interpreter may live where that user cannot go (a pyenv build under /root); then the
    system's python3 of the same version, given the venv's site-packages, does as well."""
    site = os.pathsep.join(p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p))
    version = "%d.%d" % sys.version_info[:2]
    check = (
        f"import os, subprocess, sys; sys.path.insert(0, {str(ROOT)!r}); import autograder.grading.runner; "
        f"assert '%d.%d' % sys.version_info[:2] == {version!r}; "
        # the sandbox's child
        "subprocess.run([os.path.realpath(sys.executable), '-I', '-S', '-c', 'pass'], check=True)"
    )
    reason = "no interpreter found"
    for python, extra in ((sys.executable, {}), ("/usr/bin/python3", {"PYTHONPATH": site})):
        try:
            done = subprocess.run(
                [*NOBODY, python, "-c", check],
                env={**env, **extra},
                cwd=cwd,
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            reason = str(err)
            continue
        if done.returncode == 0:
            return python, {**env, **extra}
        reason = (done.stderr.strip().splitlines() or ["failed"])[-1]
    return None, reason


@pytest.mark.slow
def test_fallback_sandbox_still_grades_hostile_files():
    """Under the limits-only fallback (GRAPHKIT_SANDBOX=limits, and as an unprivileged user when root), a few hostile
    files still earn exactly EXPECTED."""
    # Graded on the first check of each family (MINI): every function is still paid or not, in a third of the time.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GRAPHKIT", "PYTHON"))}
    runs = {"limits": _run_fallback([], sys.executable, FALLBACK, {**env, "GRAPHKIT_SANDBOX": "limits"}, ROOT)}
    skip, home = None, None
    if os.geteuid() != 0:
        skip = "not root: the run above is already unprivileged"
    elif os.stat(ROOT).st_mode & 0o005 != 0o005:
        skip = f"{ROOT} is not readable by other users"
    else:
        home = tempfile.mkdtemp(prefix="graphkit-fallback-")
        os.chmod(home, 0o777)
        python, run_env = _unprivileged_python({**env, "HOME": home}, home)
        if python is None:
            skip = f"the kit cannot run as uid 65534 here: {run_env}"
        else:
            limits = {
                **run_env,
                isolation.MODE_ENV: "limits",
            }  # asked for by name: unasked, a user namespace isolates fully
            runs["unprivileged"] = _run_fallback(NOBODY, python, FALLBACK_UNPRIVILEGED, limits, home)
    results = {name: _fallback_result(proc) for name, proc in runs.items()}
    if home:
        subprocess.run(["rm", "-rf", home], check=False)
    for name, stems in (("limits", FALLBACK), ("unprivileged", FALLBACK_UNPRIVILEGED)):
        if name not in results:
            continue
        result, err = results[name]
        assert result is not None, f"the {name} fallback run failed:\n{err[-3000:]}"
        assert result["level"] == "limits"
        assert name == "limits" or result["uid"] == 65534
        for stem in stems:
            assert result["points"][stem] == expected_points(HOSTILES[stem], MINI), (name, stem, result["points"][stem])
    assert not survivors(MARKER + "setsid_escape"), "the escaped grandchild outlived the fallback grading"
    if skip:
        pytest.skip(f"the limits fallback passed; the unprivileged run was skipped: {skip}")


def test_limits_are_what_the_hostile_files_assume():
    """The defaults the hostile files lean on: 1 GiB of memory (the 4 GiB bomb fails) and 32 processes (the flood
    stops)."""
    limits = Limits()
    assert limits.memory_bytes < 4 << 30
    assert limits.processes < 200
    assert limits.output_bytes < 40_000
