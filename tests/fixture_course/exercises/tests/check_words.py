"""The fixture course's public tests: what `make check` runs on the learner's exercises/words.py."""

import importlib.util
from pathlib import Path

import pytest


def _learners_module():
    path = Path(__file__).resolve().parents[1] / "words.py"
    spec = importlib.util.spec_from_file_location("words", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


words = _learners_module()


def test_longest_is_the_first_of_the_longest_words():
    assert words.longest("a bb cc") == "bb"


def test_longest_of_no_word_raises_valueerror():
    with pytest.raises(ValueError):
        words.longest("   ")


def test_a_tally_counts_each_word():
    tally = words.Tally()
    for word in ("a", "b", "a"):
        tally.add(word)
    assert (tally.count("a"), tally.count("b"), tally.count("c")) == (2, 1, 0)
