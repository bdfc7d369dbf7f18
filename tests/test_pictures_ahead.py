"""A batch draws its lessons' pictures ahead, all in one child (course_pictures.draw_ahead): each lesson's pictures are
those its own child draws, nothing of one lesson reaches the next, and a lesson already kept is not drawn again."""

import json

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
