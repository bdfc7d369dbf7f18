"""The answers the lesson notebooks' clickable graphs saved, read by the learner's own reader
(exercises/widget_answers.py)."""

from exercises.widget_answers import chunks, saved_answers  # noqa: F401 - the course's widgets part
