"""The sandbox's last unbounded paths: replies carrying the nonce, the whole tree's memory, its folder's
removal, weaker isolation only by name, and no process left behind in any mode.

The hostile files of tests/hostile/ (giant_reply, fork_memory, shm_left_behind, disk_filler,
deep_folders, late_writer) are graded in full isolation by tests/test_adversarial.py; here the
same attacks are played where that suite does not reach: in limits mode, and as a user without root.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import pytest

from autograder.course.lessons import LESSONS
from autograder.grading import prepared
from autograder.grading.submission import Chunk
from autograder.sandbox import cgroups, isolation, landlock, reply_bounds
from autograder.sandbox.limits import Limits, tree_processes
from autograder.sandbox.removal import remove_tree
from autograder.sandbox.sandbox import Sandbox
from tests.conftest import ROOT
from tests.hostile.shared import load

HOSTILE = ROOT / "tests" / "hostile"
MARKER = "graphkit-hostile-"
SMALL_GRAPH = [["p", "mul", ["a", "b"]], ["z", "add", ["p", "c"]]]
GRAPH_FUNCTIONS = ("evaluate", "inputs_of", "users_of", "backward")
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]

WITH_THE_NONCE = """
import os, struct, sys


def current_nonce():
    frame = sys._getframe(1)
    while frame is not None:
        value = frame.f_locals.get("nonce")
        if isinstance(value, bytes) and len(value) == 32:
            return value
        frame = frame.f_back
    raise LookupError("no nonce")


def users_of(graph, name):
    body = b'{"status": "ok", "value": [' + b"[]," * BLOCKS + b'[]]}'
    view = memoryview(struct.pack(">Q", len(body)) + current_nonce() + body)
    while view:
        view = view[os.write(int(sys.argv[2]), view):]
    return []
"""


def own_copy(stem, folder):
    """(path, marker): the hostile file as graded (the shared honest code first), written to ``folder`` with its
    marker made this test process's own, so that test_adversarial.py, grading the same attack in another worker
    at the same time, neither sees its processes nor is seen."""
    marker = f"graphkit-isolated-{os.getpid()}-{stem}"
    code = "".join(chunk.code for chunk in load(HOSTILE / f"{stem}.py").chunks).replace(MARKER + stem, marker)
    path = folder / f"{stem}.py"
    path.write_text(code, encoding="utf-8")
    return path, marker


def survivors(marker, wait=0.0):
    """Processes whose command line carries `marker`, waiting up to `wait` seconds for one to show."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                        found.append(int(entry))
                except OSError:
                    continue
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(0.02)


# ---------------------------------------------------------------- replies carrying the right nonce
def test_a_reply_with_the_nonce_over_what_its_call_needs_is_refused_before_it_is_read():
    """4.5 MB of empty lists (some 150 MB once decoded) answering a call on a small graph: refused by its length."""
    with Sandbox([Chunk("nonce", "BLOCKS = 1_500_000\n" + WITH_THE_NONCE)]) as sandbox:
        assert sandbox.variable("BLOCKS")["status"] == "ok"  # started and loaded before measuring
        tracemalloc.start()
        try:
            reply = sandbox.call("users_of", [SMALL_GRAPH, "p"])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert reply["status"] == "invalid" and "what this call can need" in reply["reason"], reply
    assert peak < 4 << 20, f"the parent held {peak} bytes for a reply it should have refused by its header"


def test_a_reply_of_many_items_is_refused_by_its_count():
    """Within the byte bound of a large call, empty lists in place of numbers are refused before decoding."""
    names = [f"n{i}" for i in range(5000)]
    bound = reply_bounds.of_call([[[n, "neg", ["x"]] for n in names], {"x": 1.0}])
    answer = json.dumps({"status": "ok", "value": dict.fromkeys(names + ["x"], -1.2345678901234567e-300)}).encode()
    empties = b'{"status": "ok", "value": [' + b"[]," * (bound.bytes // 3 - 20) + b"[]]}"
    assert len(answer) <= bound.bytes and reply_bounds.items_in(answer) <= bound.items
    assert len(empties) <= bound.bytes and reply_bounds.items_in(empties) > bound.items


def _fits(reply, bound):
    text = json.dumps(reply, allow_nan=True).encode()  # as the child sends it
    return len(text) <= bound.bytes and reply_bounds.items_in(text) <= bound.items


def test_every_right_answer_fits_its_calls_bound():
    """The reference's answer to every small fixed case, with its arguments when the case asks for them back,
    fits the bound of its call."""
    from graphcourse import checks as check_table
    from graphcourse.judges import reference_answer

    checked = 0
    for check in check_table.all_checks():
        if check.strategy is not None or callable(check.cases):  # large inputs built on demand: see below
            continue
        for case in check.inputs():
            if (
                case.fn not in GRAPH_FUNCTIONS or case.driver
            ):  # the reference of the other lessons answers through drivers
                continue
            try:
                answer = reference_answer(case)
            except ValueError:
                continue  # a wrong-order case: its right answer is an error
            echoed = bool(case.flags.get("return_args") or case.flags.get("mutate_result"))
            reply = {"status": "ok", "seconds": 0.001, "value": answer}
            if echoed:
                reply["args_after"] = list(case.args)
            assert _fits(reply, reply_bounds.of_call(list(case.args), case.kwargs, case.built, echoed)), (
                check.id,
                case.label,
            )
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("description", [{"shape": "chain", "length": 20_000}, {"shape": "wide", "width": 5_000}])
def test_a_number_for_every_name_of_a_built_input_fits_its_calls_bound(description):
    """On the large inputs the child builds, a dict giving every name a 17-digit float fits (as a value, not
    doubles)."""
    from graphcourse import builders
    from graphcourse.checks import as_json_graph

    graph, values = builders.build(description)
    args = [as_json_graph(graph), values]
    output = {"output": graph[-1][0]}
    reply = {
        "status": "ok",
        "seconds": 0.5,
        "value": dict.fromkeys([*values, *(n[0] for n in graph)], -0.12345678901234568),
    }
    assert _fits(reply, reply_bounds.of_call(args, output, dict(description)))
    assert _fits(reply, reply_bounds.of_call(args, output)), "a bound cached by description is the bound of its args"


def test_the_load_reply_is_held_to_fifty_errors():
    """A notebook of 200 failing cells loads with its first 50 errors, within the load bound."""
    chunks = [Chunk(f"cell {i}", f"raise ValueError('cell {i} fails' + ',' * 400)") for i in range(200)]
    with Sandbox(chunks) as sandbox:
        reply = sandbox.call("users_of", [SMALL_GRAPH, "p"])
    assert reply["status"] == "missing" and len(sandbox.load_errors) == 50


# ---------------------------------------------------------------- the whole tree's memory and processes
def test_without_a_memory_cgroup_the_process_count_keeps_the_tree_under_its_cap():
    limits = Limits()
    capped = cgroups.Group(memory_capped=True, processes_capped=True)
    assert tree_processes(limits, capped) == limits.processes
    for group in (None, cgroups.Group()):
        count = tree_processes(limits, group)
        assert count >= 2 and (count == 2 or count * limits.memory_bytes <= limits.sandbox_memory_bytes)


@pytest.mark.skipif(
    not (cgroups.v2_caps() or "memory" in cgroups.v1_bases()), reason="no memory cgroup can be made here"
)
def test_the_cgroup_caps_the_memory_of_the_whole_tree():
    """Three forks that each fill 40 MiB under a 64 MiB cap on the tree: never all at once."""
    source = """
import os, time


def held():
    pids, read_end, write_end = [], *os.pipe()
    for _ in range(3):
        pid = os.fork()
        if pid == 0:
            block = b"\\x01" * (40 << 20)
            os.write(write_end, b"+")
            time.sleep(30)
            os._exit(0)
        pids.append(pid)
    time.sleep(0.5)  # the memory cgroup kills a fork that fills past its cap at once
    alive = [pid for pid in pids if os.waitpid(pid, os.WNOHANG)[0] == 0]
    for pid in alive:
        os.kill(pid, 9)
    os.set_blocking(read_end, False)
    try:
        told = len(os.read(read_end, 64))
    except BlockingIOError:
        told = 0
    return [told, len(alive)]
"""
    limits = Limits(memory_bytes=128 << 20, sandbox_memory_bytes=64 << 20)
    with Sandbox([Chunk("tree", source)], limits) as sandbox:
        reply = sandbox.call("held", [])
    assert reply["status"] in ("ok", "died"), reply
    if reply["status"] == "ok":
        told, alive = reply["value"]
        assert min(told, alive) < 3, f"three 40 MiB forks held their memory at once under a 64 MiB cap: {reply}"


# ---------------------------------------------------------------- removing what a child leaves
def _chain(top, depth):
    """A chain of folders `depth` deep under `top`, made through descriptors (its path is longer than PATH_MAX)."""
    current = os.open(top, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=current)
        deeper = os.open("d", os.O_RDONLY, dir_fd=current)
        os.close(current)
        current = deeper
    Path(f"/proc/self/fd/{current}/last").write_text("x")
    os.close(current)


@pytest.fixture
def fast_tmp(tmp_path):
    """A folder on tmpfs where there is one: removing thousands of folders from some disks takes seconds."""
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        folder = tempfile.mkdtemp(prefix="graphkit-test-", dir="/dev/shm")
        yield Path(folder)
        remove_tree(folder)
    else:
        yield tmp_path


def test_remove_tree_removes_a_chain_deeper_than_recursion_goes(fast_tmp):
    top = fast_tmp / "top"
    top.mkdir()
    _chain(top, 1500)
    assert remove_tree(top) is True and not top.exists()


def test_remove_tree_follows_no_link_and_enters_no_locked_folder_for_good(fast_tmp):
    keep = fast_tmp / "keep"
    keep.mkdir()
    (keep / "precious").write_text("x")
    top = fast_tmp / "top"
    (top / "locked" / "inner").mkdir(parents=True)
    (top / "locked" / "inner" / "file").write_text("x")
    os.symlink(keep, top / "link")
    os.symlink(keep / "precious", top / "locked" / "file_link")
    os.chmod(top / "locked", 0)
    assert remove_tree(top) is True and not top.exists()
    assert (keep / "precious").read_text() == "x"
    assert remove_tree(top) is True, "a path that is already gone is removed"
    os.symlink(keep, fast_tmp / "alone")
    assert remove_tree(fast_tmp / "alone") is True and (keep / "precious").exists()


def test_remove_tree_never_raises(fast_tmp, monkeypatch):
    (fast_tmp / "top" / "sub").mkdir(parents=True)

    def broken(*args, **kwargs):
        raise RecursionError("as deep as it goes")

    monkeypatch.setattr(os, "scandir", broken)
    assert remove_tree(fast_tmp / "top") is False
    monkeypatch.undo()
    assert remove_tree(fast_tmp / "top") is True


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_remove_tree_leaves_what_is_mounted_inside(fast_tmp):
    top = fast_tmp / "top"
    (top / "mounted").mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "graphkit-test", str(top / "mounted")], check=True)
    try:
        (top / "mounted" / "kept").write_text("x")
        assert remove_tree(top) is False
        assert (top / "mounted" / "kept").read_text() == "x"
    finally:
        subprocess.run(["umount", str(top / "mounted")], check=True)
    assert remove_tree(top) is True


# ---------------------------------------------------------------- weaker isolation only by name
def test_without_full_isolation_a_sandbox_refuses_to_start_unless_limits_are_asked_for(monkeypatch):
    monkeypatch.setattr(
        isolation, "_probe", lambda asked: ("limits", ["asked"], None) if asked else ("limits", ["no namespaces"], None)
    )
    monkeypatch.delenv(isolation.MODE_ENV, raising=False)
    with (
        pytest.raises(isolation.IsolationError) as refused,
        Sandbox([Chunk("x", "def f(g):\n    return 1\n")]) as sandbox,
    ):
        sandbox.call("f", [[]])
    message = str(refused.value)
    assert isinstance(refused.value, RuntimeError)
    assert "no namespaces" in message and "sudo" in message and "GRAPHKIT_SANDBOX=limits" in message
    monkeypatch.setenv(isolation.MODE_ENV, "limits")
    assert isolation.mode() == "limits"
    with Sandbox([Chunk("x", "def f(g):\n    return 1\n")]) as sandbox:
        assert sandbox.call("f", [[]])["value"] == 1


# ---------------------------------------------------------------- limits mode: what its cleanup must still do
@pytest.fixture
def limits_mode(monkeypatch, fast_tmp):
    """Limits mode, asked for by name, with the sandbox's folders on tmpfs (its deep chains are removed fast)."""
    monkeypatch.setenv(isolation.MODE_ENV, "limits")
    monkeypatch.setattr(tempfile, "tempdir", str(fast_tmp))
    assert isolation.mode() == "limits"
    return fast_tmp


def test_limits_mode_removes_a_deep_folder_chain(limits_mode):
    """deep_folders leaves 3,000 nested folders in its folder: the sandbox closes without raising, and removes them."""
    with Sandbox(load(HOSTILE / "deep_folders.py").chunks) as sandbox:
        assert sandbox.call("users_of", [SMALL_GRAPH, "p"])["value"] == ["z"]
    assert not [p for p in limits_mode.iterdir() if p.name.startswith("graphkit-sandbox-")]


@pytest.mark.skipif(cgroups.cgroup_base() is None and not cgroups.v1_bases(), reason="no cgroup can be made here")
def test_limits_mode_kills_a_process_that_left_the_sandbox_before_close_returns(limits_mode, tmp_path):
    """late_writer leaves a process in a session of its own, working in /, without TMPDIR: the cgroup kills it."""
    path, marker = own_copy("late_writer", tmp_path)
    with Sandbox(load(path).chunks) as sandbox:
        assert sandbox.call("users_of", [SMALL_GRAPH, "p"])["value"] == ["z"]
        assert survivors(marker, wait=3.0), "the hostile file left no process: nothing was tested"
    assert not survivors(marker), "a learner process outlived the sandbox"


needs_landlock = pytest.mark.skipif(not landlock.abi(), reason="this kernel has no Landlock")
WRITER = """
import os

def tried(paths):
    said = {}
    for path in paths:
        try:
            with open(path, "ab"):  # opened for writing, nothing written: the test harms no file if this succeeds
                pass
            said[path] = "written"
        except OSError as err:
            said[path] = type(err).__name__
    return said
"""


@needs_landlock
def test_limits_mode_learner_code_writes_only_in_its_own_folder(limits_mode, tmp_path):
    """The course's store, the kit's own files and a results file the grader will write: none can be opened for
    writing; the child's folder can (Landlock)."""
    store = prepared.path()
    before = store.read_bytes() if store.exists() else None
    outside = [str(store), str(ROOT / "autograder" / "cli.py"), str(tmp_path / "results.json")]
    with Sandbox([Chunk("w", WRITER)]) as sandbox:
        said = sandbox.call("tried", [[*outside, "mine"]])["value"]
    assert said == {**{path: "PermissionError" for path in outside}, "mine": "written"}
    assert not (tmp_path / "results.json").exists()
    assert (store.read_bytes() if store.exists() else None) == before


@pytest.mark.skipif(isolation.pid_namespace() is None, reason="no PID namespace can be made here")
def test_limits_mode_without_a_cgroup_still_ends_a_process_that_left_with_setsid(limits_mode, monkeypatch, tmp_path):
    """No cgroup to kill through: setsid_escape's grandchild (in /, with an empty environment) dies with the
    child's PID namespace before close returns."""
    monkeypatch.setattr(cgroups, "new_group", lambda *args: None)
    path, marker = own_copy("setsid_escape", tmp_path)
    with Sandbox(load(path).chunks) as sandbox:
        assert sandbox.call("users_of", [SMALL_GRAPH, "p"])["value"] == ["z"]
        assert survivors(marker, wait=3.0), "the hostile file left no process: nothing was tested"
    assert not survivors(marker), "a learner process outlived the sandbox"


def test_close_all_ends_every_child_still_running():
    """What the CLI does before it writes --output: no sandbox child of the process is left."""
    from autograder.sandbox import sandbox as sandboxes

    sandbox = Sandbox([Chunk("x", "def f():\n    return 1\n")])
    assert sandbox.call("f", [])["value"] == 1
    pid = sandbox._proc.pid
    assert sandboxes.close_all() == 1 and sandbox._proc is None
    assert not os.path.exists(f"/proc/{pid}") and sandboxes.close_all() == 0


@pytest.mark.slow
def test_limits_mode_output_file_is_the_graders_and_no_process_outlives_it(tmp_path):
    """setsid_escape leaves a process in a session of its own, in / and with an empty environment, that looks for
    the grader's --output in /proc and replaces it with forged results. The grader's file stays its own. Graded on
    lesson 1's functions alone: the escape happens at every load, and the file is written once grading is done."""
    env = {key: value for key, value in os.environ.items() if key != isolation.MODE_ENV}
    handed_in, marker = own_copy("setsid_escape", tmp_path)
    lesson = ["--lesson", LESSONS[0].assignment]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder",
            "grade",
            str(handed_in),
            *lesson,
            "--isolation",
            "limits",
            "--output",
            "out.json",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    written = (tmp_path / "out.json").read_text()
    assert json.loads(written)["score"] > 0
    time.sleep(2)  # the forger looks every 0.1 s
    assert (tmp_path / "out.json").read_text() == written
    assert not list(tmp_path.glob("*.forged"))
    assert not survivors(marker), "a learner process outlived the grader"


# ---------------------------------------------------------------- a user without root
NOBODY_SCRIPT = """
import json, os, sys, time
sys.path.insert(0, {root!r})
from tests.hostile.shared import load
from autograder.sandbox import isolation
from autograder.sandbox.limits import Limits
from autograder.sandbox.sandbox import Sandbox


def marked():
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and int(entry) != os.getpid():
                if {marker!r}.encode() in open(f"/proc/{{entry}}/cmdline", "rb").read():
                    found.append(entry)
        except OSError:
            pass
    return found


out = {{"uid": os.getuid()}}
limits = Limits(memory_bytes=256 << 20, sandbox_memory_bytes=1 << 30)  # four processes even with no memory cgroup
try:
    with Sandbox(load({hostile!r}).chunks, limits) as sandbox:
        out["mode"] = isolation.mode()
        out["reply"] = sandbox.call("users_of", [[["p", "mul", ["a", "b"]], ["z", "add", ["p", "c"]]], "p"])
        deadline = time.monotonic() + 3
        while not marked() and time.monotonic() < deadline:
            time.sleep(0.02)
        out["seen"] = marked()
except isolation.IsolationError as err:
    out["refused"] = str(err)
out["left"] = marked()
print("RESULT " + json.dumps(out))
"""


def _unprivileged_python():
    """(python, env) that uid 65534 can run with the kit's packages importable, or None: the system's python3 first,
    whose whole installation that user can read (a venv's may point into a folder it cannot)."""
    site = os.pathsep.join(p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p))
    for python, extra in (("/usr/bin/python3", {"PYTHONPATH": site}), (sys.executable, {})):
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **extra}
        check = (
            f"import sys; sys.path.insert(0, {str(ROOT)!r}); import autograder.sandbox.sandbox; "
            f"assert sys.version_info[:2] == {tuple(sys.version_info[:2])!r}"
        )
        try:
            if (
                subprocess.run(
                    [*NOBODY, python, "-c", check], env=env, cwd="/", capture_output=True, timeout=60
                ).returncode
                == 0
            ):
                return python, env
        except (OSError, subprocess.TimeoutExpired):
            continue
    return None


@pytest.mark.skipif(os.geteuid() != 0, reason="switching to uid 65534 needs root")
def test_without_root_the_sandbox_isolates_fully_or_refuses():
    """As uid 65534, with nothing asked for: full isolation through a user namespace (late_writer's process dies
    with the sandbox), or IsolationError; never limits alone, where that process would outlive grading."""
    found = _unprivileged_python()
    if found is None or os.stat(ROOT).st_mode & 0o005 != 0o005:
        pytest.skip("the kit cannot run as uid 65534 here")
    python, env = found
    readable = Path(tempfile.mkdtemp(prefix="graphkit-isolated-"))  # uid 65534 must read the file it grades
    readable.chmod(0o755)
    path, marker = own_copy("late_writer", readable)
    path.chmod(0o644)
    script = NOBODY_SCRIPT.format(root=str(ROOT), hostile=str(path), marker=marker)
    done = subprocess.run(
        [*NOBODY, python, "-c", script], env=env, cwd="/", capture_output=True, text=True, timeout=120
    )
    line = next((line for line in done.stdout.splitlines() if line.startswith("RESULT ")), None)
    assert line, done.stderr[-3000:]
    result = json.loads(line[len("RESULT ") :])
    assert result["uid"] == 65534
    if "refused" in result:
        assert "sudo" in result["refused"] and "GRAPHKIT_SANDBOX=limits" in result["refused"]
    else:
        assert result["mode"] == "full" and result["reply"]["value"] == ["z"], result
        assert result["seen"], f"the hostile file left no process: nothing was tested: {result}"
        assert not result["left"], f"a learner process outlived the sandbox: {result}"
    time.sleep(0.1)
    shutil.rmtree(readable, ignore_errors=True)
    assert not survivors(marker)
