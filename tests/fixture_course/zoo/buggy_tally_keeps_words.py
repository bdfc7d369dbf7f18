"""Keeps every word added and counts them when asked: right counts, memory that grows with every add."""


class Tally:
    def __init__(self):
        self.words = []

    def add(self, word):
        self.words.append(word)

    def count(self, word):
        return self.words.count(word)
