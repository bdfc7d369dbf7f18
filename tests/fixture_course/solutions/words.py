"""Words, counted and compared: the fixture course's one module."""


def longest(text):
    """Return the longest word of ``text`` (words are split at whitespace); the first one of that length.

    Raises ValueError naming ``text`` when it holds no word.
    """
    ### BEGIN SOLUTION
    words = text.split()
    if not words:
        raise ValueError("text holds no word")
    return max(words, key=len)
    ### END SOLUTION


class Tally:
    """Counts words: ``add(word)`` counts it once more; ``count(word)`` is how often it was added (0 if never)."""

    def __init__(self):
        ### BEGIN SOLUTION
        self.counts = {}
        ### END SOLUTION

    def add(self, word):
        ### BEGIN SOLUTION
        self.counts[word] = self.counts.get(word, 0) + 1
        ### END SOLUTION

    def count(self, word):
        ### BEGIN SOLUTION
        return self.counts.get(word, 0)
        ### END SOLUTION
