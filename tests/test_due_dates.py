"""Due dates come from the lessons (due= on a lesson's first line) or the course's dates part, never from a list."""

import pytest

from autograder.course.due_dates import due_dates, undated
from autograder.course.lessons import LessonError, discover
from tests.conftest import ROOT

FIXTURE_NOTEBOOKS = ROOT / "tests" / "fixture_course" / "notebooks"


def lesson_folder(tmp_path, first_line):
    (tmp_path / "lessons").mkdir()
    source = f"{first_line}\n# %% [markdown]\n# Duals.\n"
    (tmp_path / "lessons" / "lesson7_duals.py").write_text(source, encoding="utf-8")
    return tmp_path


def test_a_lesson_gives_its_own_due_date():
    lessons = discover(FIXTURE_NOTEBOOKS)
    assert due_dates(lessons, dates=None) == {"lesson1_words": "2025-03-14 23:59:00 UTC"}


def test_a_lesson_without_one_is_named_with_its_file_and_the_fix(tmp_path):
    lessons = discover(lesson_folder(tmp_path, '# %% lesson notebook="duals.ipynb"'))
    [said] = undated(lessons, dates=None, notebooks=tmp_path)
    assert said.startswith(f"{tmp_path / 'lessons' / 'lesson7_duals.py'}: lesson lesson7_duals has no due date")
    assert 'due="YYYY-MM-DD HH:MM:SS UTC"' in said


def test_the_course_s_dates_part_fills_in_the_lessons_without_one(tmp_path):
    class Term:
        @staticmethod
        def due(assignments):
            return {assignment: "2030-01-01 23:59:00 UTC" for assignment in assignments}

    lessons = discover(lesson_folder(tmp_path, '# %% lesson notebook="duals.ipynb"'))
    assert due_dates(lessons, dates=Term) == {"lesson7_duals": "2030-01-01 23:59:00 UTC"}
    assert undated(lessons, dates=Term) == []


def test_a_due_date_of_another_shape_is_refused_naming_the_file(tmp_path):
    folder = lesson_folder(tmp_path, '# %% lesson notebook="duals.ipynb" due="next friday"')
    with pytest.raises(LessonError, match=r"lessons/lesson7_duals.py:1: due= is a date and time in UTC"):
        discover(folder)
