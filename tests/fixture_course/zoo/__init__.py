"""The fixture course's zoo: a misconception and a correct style, each a module's text.

A buggy entry redefines what it gets wrong after the reference (so every other function is right);
a correct entry is a whole module of its own.
"""

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
REFERENCE = HERE.parent / "solutions" / "words.py"


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str  # "buggy" or "correct"
    fails: tuple  # the families it must fail, and the only ones it may
    path: Path

    def source(self):
        base = REFERENCE.read_text(encoding="utf-8") + "\n\n" if self.kind == "buggy" else ""
        return base + self.path.read_text(encoding="utf-8")


ENTRIES = (
    Entry("buggy_longest_last", "buggy", ("longest_word",), HERE / "buggy_longest_last.py"),
    Entry("buggy_tally_keeps_words", "buggy", ("tally_memory",), HERE / "buggy_tally_keeps_words.py"),
    Entry("correct_counter", "correct", (), HERE / "correct_counter.py"),
)


def entries():
    return list(ENTRIES)
