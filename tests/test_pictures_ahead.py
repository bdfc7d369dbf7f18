"""A batch draws its lessons' pictures ahead, all in one child (course_pictures.draw_ahead): each lesson's pictures are
those its own child draws, nothing of one lesson reaches the next, and a lesson already kept is not drawn again."""

import io
import json

import pytest

from autograder.nbgrader import course_pictures

CELL = "class Picture:\n    def _repr_png_(self):\n        return {png!r}\n\nPicture()"


def notebook(folder, *sources):
    folder.mkdir(parents=True)
    cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": s} for i, s in enumerate(sources)]
    path = folder / "lesson.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def test_pictures_drawn_ahead_are_those_each_lesson_draws_alone(tmp_path):
    first = notebook(tmp_path / "one", "leak = 'from lesson one'", CELL.format(png=b"one"))
    second = notebook(tmp_path / "two", CELL.replace("{png!r}", "str(globals().get('leak')).encode()"))
    cache = tmp_path / "cache"
    child = course_pictures.draw_ahead([first, second, first], cache)
    assert child is not None and child.lessons == 2
    course_pictures.wait(child)
    assert child.returncode == 0
    kept = {path: course_pictures._kept(path, cache) for path in (first, second)}
    assert all(file.is_file() for file in kept.values())
    assert course_pictures.draw_ahead([first, second], cache) is None  # kept: nothing to draw again
    ahead = {path: json.loads(file.read_text()) for path, file in kept.items()}
    for file in kept.values():
        file.unlink()
    course_pictures._drawn.clear()
    alone = {path: course_pictures.pictures(path, tmp_path / "alone") for path in (first, second)}
    assert ahead == alone
    assert alone[second]["c0"]["png"] == "Tm9uZQ=="  # b"None": the second lesson did not see the first one's names


def alive(pid):
    """Whether process ``pid`` runs (a zombie, dead but not reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def test_the_drawing_child_dies_with_the_batch(tmp_path):
    """A batch killed by SIGKILL while its pictures are drawn leaves no drawing child behind."""
    import subprocess
    import sys
    import time

    slow = notebook(tmp_path / "slow", "import time\ntime.sleep(120)")
    batch = (
        "import os, signal, sys\n"
        "from autograder.nbgrader import course_pictures\n"
        "print(course_pictures.draw_ahead([sys.argv[1]], sys.argv[2]).pid, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", batch, slow, tmp_path / "cache"], capture_output=True, text=True)
    assert done.returncode == -9
    child = int(done.stdout)
    deadline = time.monotonic() + 30  # how long a busy machine may take to deliver the signal, not a measurement
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


class FakeChild:
    def __init__(self):
        self.ended = False

    def kill(self):
        self.ended = True

    def wait(self, timeout=None):
        return 0


def test_a_batch_draws_the_lessons_its_input_holds_from_the_outset(tmp_path, monkeypatch):
    """Given a submissions folder, the batch starts drawing the pictures of the lessons it holds once OUT's leftovers
    are swept, before nbgrader makes the course; folder names are only compared with the course's assignments, and
    a batch stopped before its feedback ends the drawing child."""
    from autograder.course.lessons import LESSONS
    from autograder.nbgrader.course_folder import BatchError, Course
    from autograder.pipeline import batch, feedback_pool, handins

    first, second = LESSONS[0].assignment, LESSONS[1].assignment
    folder = tmp_path / "submitted"
    for learner, assignment in (("ada", first), ("bob", "../" + second), ("cy", "not_a_lesson"), ("dee", second)):
        (folder / learner / assignment).mkdir(parents=True, exist_ok=True)
    (folder / "eve").mkdir()
    (folder / "eve" / first).write_text("a file, not a hand-in")
    (folder / "notes.txt").write_text("")
    drawn, children, events = [], [], []

    def draw_ahead(sources, cache):
        drawn.append(sorted(source.parent.name for source in sources))
        children.append(FakeChild())
        return children[-1]

    def prepare(course, swept=None):
        events.append("swept")
        swept()
        events.append("generate_assignment")

    def mirror(*args):
        raise BatchError("stopped here")

    monkeypatch.setattr(feedback_pool.course_pictures, "draw_ahead", draw_ahead)
    monkeypatch.setattr(Course, "prepare", prepare)
    monkeypatch.setattr(handins, "mirror", mirror)
    with pytest.raises(BatchError):
        batch.run(tmp_path / "out", folder, stream=io.StringIO())
    assert events == ["swept", "generate_assignment"]
    assert drawn == [sorted({first, second})]
    assert children[0].ended  # stopped before its feedback: not left drawing

    early = feedback_pool.Early()
    early.start(Course(tmp_path / "out", io.StringIO()), folder)
    writer = feedback_pool.Feedback(Course(tmp_path / "out", io.StringIO()), early=early)
    assert writer.drawn == {first, second} and writer.drawing == [children[-1]]
    early.close()
    assert not children[-1].ended  # handed over: the writer waits for it
