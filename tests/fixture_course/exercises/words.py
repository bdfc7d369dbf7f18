# Your exercise. Replace each `raise NotImplementedError(...)` with your code;
# keep the names and signatures as they are. Run `make check` to test it.
"""Words, counted and compared: the fixture course's one module."""


def longest(text):
    """Return the longest word of ``text`` (words are split at whitespace); the first one of that length.

    Raises ValueError naming ``text`` when it holds no word.
    """
    # YOUR CODE HERE
    raise NotImplementedError("task longest: not written yet")


class Tally:
    """Counts words: ``add(word)`` counts it once more; ``count(word)`` is how often it was added (0 if never)."""

    def __init__(self):
        # YOUR CODE HERE
        raise NotImplementedError("task Tally: not written yet")

    def add(self, word):
        # YOUR CODE HERE
        raise NotImplementedError("task Tally: not written yet")

    def count(self, word):
        # YOUR CODE HERE
        raise NotImplementedError("task Tally: not written yet")
