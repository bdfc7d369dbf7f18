"""make hub-feedback (autograder/pipeline/exchange_feedback.py): make grade's pages placed for nbgrader's
release_feedback.

The whole round trip, with nbgrader's exchange and real accounts, is tests/hub/ (make hub-e2e);
here the placing alone, on folders laid out as nbgrader's collect and make grade leave them.
"""

import os

import pytest

from autograder.pipeline import exchange_feedback

LESSON = "lesson_one"
PAGE = "notebook.html"
SECRET = "ab12" * 32  # as nbgrader's submit writes it: 128 hexadecimal digits
WHEN = "2026-03-14 08:00:00.000000 UTC"


def hand_in(out, course, student, graded=WHEN, collected=WHEN, secret=SECRET, page=True):
    """A learner's collected hand-in in course/submitted/ and what make grade made of it in out/."""
    collected_dir = course / "submitted" / student / LESSON
    collected_dir.mkdir(parents=True)
    (collected_dir / "timestamp.txt").write_text(collected)
    if secret is not None:
        (collected_dir / "submission_secret.txt").write_text(secret)
    mirrored = out / "submitted" / student / LESSON
    mirrored.mkdir(parents=True)
    (mirrored / "timestamp.txt").write_text(graded + "\n")
    feedback = out / "feedback" / student / LESSON
    feedback.mkdir(parents=True)
    if page:
        (feedback / PAGE).write_text(f"<html>feedback for {student}</html>")
    return collected_dir


@pytest.fixture
def folders(tmp_path):
    return tmp_path / "out", tmp_path / "course"


def test_a_graded_hand_in_gets_its_page_beside_its_secret_and_timestamp(folders):
    out, course = folders
    hand_in(out, course, "ada")
    placed, notes = exchange_feedback.place(out, course)
    assert (placed, notes) == (["ada/lesson_one"], [])
    target = course / "feedback" / "ada" / LESSON
    assert (target / PAGE).read_text() == "<html>feedback for ada</html>"
    assert (target / "submission_secret.txt").read_text() == SECRET
    assert (target / "timestamp.txt").read_text() == WHEN + "\n"


def test_a_hand_in_collected_after_grading_gets_nothing_until_graded_again(folders):
    out, course = folders
    hand_in(out, course, "bob", collected="2026-03-14 09:30:00.000000 UTC")
    placed, notes = exchange_feedback.place(out, course)
    assert placed == [] and not (course / "feedback").exists()
    assert len(notes) == 1 and "bob/lesson_one" in notes[0] and "run make grade again" in notes[0]


def test_a_timestamp_in_another_zone_is_the_same_instant(folders):
    out, course = folders
    hand_in(out, course, "ada", collected="2026-03-14 09:00:00+01:00")
    assert exchange_feedback.place(out, course)[0] == ["ada/lesson_one"]


@pytest.mark.parametrize(
    "secret, problem",
    [
        ("not a secret", "not the hexadecimal secret"),
        (None, "gone"),
    ],
)
def test_a_secret_nbgrader_did_not_write_places_nothing(folders, secret, problem):
    out, course = folders
    hand_in(out, course, "eve", secret=secret)
    placed, notes = exchange_feedback.place(out, course)
    assert placed == [] and len(notes) == 1 and problem in notes[0], notes


def test_a_secret_or_timestamp_left_as_a_link_is_never_followed(folders, tmp_path):
    out, course = folders
    elsewhere = tmp_path / "instructors_file.txt"
    elsewhere.write_text(SECRET)
    folder = hand_in(out, course, "mallory", secret=None)
    os.symlink(elsewhere, folder / "submission_secret.txt")
    folder = hand_in(out, course, "trudy")
    (folder / "timestamp.txt").unlink()
    os.symlink(out / "submitted" / "trudy" / LESSON / "timestamp.txt", folder / "timestamp.txt")
    placed, notes = exchange_feedback.place(out, course)
    assert placed == [] and len(notes) == 2 and all("symbolic link" in note for note in notes), notes


def test_only_plain_learner_and_lesson_names_are_taken(folders):
    out, course = folders
    hand_in(out, course, ".hidden")
    placed, notes = exchange_feedback.place(out, course)
    assert placed == [] and "not a learner's and a lesson's folder" in notes[0]


def test_a_hand_in_without_a_page_is_named(folders):
    out, course = folders
    hand_in(out, course, "ada", page=False)
    placed, notes = exchange_feedback.place(out, course)
    assert placed == [] and "wrote no page" in notes[0]


def test_the_command_says_to_grade_first(folders, capsys):
    out, course = folders
    assert exchange_feedback.main(["--out", str(out), "--course", str(course)]) == 2
    assert "run make grade" in capsys.readouterr().err
    hand_in(out, course, "ada")
    assert exchange_feedback.main(["--out", str(out), "--course", str(course)]) == 0
    assert "feedback placed for 1 hand-in(s)" in capsys.readouterr().out
