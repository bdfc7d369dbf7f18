"""Benchmark cohorts: a realistic class and an all-correct one from the misconception zoo, and identical copies.

The course's bench part says what a class is made of: ``CLASS``, each kind's share of the
learners in a fixed order, and ``class_entries()``, the zoo entries each kind hands in.
``makeup(n)`` gives each kind its number of n learners (largest remainders, ties to the
earlier kind), so a class is the same on every run. ``realistic_learners(n)`` hands each
learner of a kind the code of one of its entries, spread evenly over them; the kind
"untouched" hands in the release notebooks. ``correct_learners(n)`` is a class of n correct
answers, from the entries of the kind "correct". Learners are written as nbgrader's
submitted/ folder by the demo cohort's own builder (the course's demo part), and ``write``
signs every learner's notebooks with a comment of their own, as no two learners type the
same file: the grade cache grades each learner's code, while untouched notebooks stay
byte-identical, as a class hands them in.

``copy_learner`` repeats one learner's folder byte for byte under new ids: every copy is
handed to nbgrader and the batch, while the hidden checks grade its code once (the
grade cache recognises identical code).
"""

import json
import shutil
from pathlib import Path

from autograder.course import active

demo, edges = active.part("demo"), active.part("bench")
UNTOUCHED = "untouched"  # the kind of CLASS whose learners hand in the release notebooks
CORRECT = "correct"  # the kind of CLASS whose entries are correct answers


def spread(items, count):
    """``count`` items taken evenly across ``items`` (all of them once before any repeats), in a fixed order."""
    items = list(items)
    if not items:
        return []
    if count <= len(items):
        return [items[i * len(items) // count] for i in range(count)]
    return [items[i % len(items)] for i in range(count)]


def makeup(count, shares=None):
    """[(kind, learners)] for a class of ``count``: each kind's share of CLASS, rounded by largest remainders."""
    shares = [(kind, share) for kind, share, _words in edges.CLASS] if shares is None else list(shares)
    total = sum(share for _kind, share in shares)
    exact = [count * share / total for _kind, share in shares]
    numbers = [int(x) for x in exact]
    by_remainder = sorted(range(len(shares)), key=lambda i: (-(exact[i] - numbers[i]), i))
    for i in by_remainder[: count - sum(numbers)]:
        numbers[i] += 1
    return [(kind, n) for (kind, _share), n in zip(shares, numbers)]


def _ids(count, prefix):
    width = len(str(max(count - 1, 0)))
    return [f"{prefix}{i:0{width}d}" for i in range(count)]


def _entries(kind, entries):
    if not entries.get(kind):
        raise ValueError(
            f"{edges.__file__}: class_entries() gives no zoo entry of the kind {kind!r}; add one, or give "
            f"{kind!r} a share of 0 in CLASS"
        )
    return entries[kind]


def realistic_learners(count, prefix="learner"):
    """``count`` demo learners making up the course's realistic class (CLASS), kind by kind."""
    entries, ids, learners = edges.class_entries(), iter(_ids(count, prefix)), []
    words = {kind: text for kind, _share, text in edges.CLASS}
    for kind, number in makeup(count):
        if kind == UNTOUCHED:
            learners += [demo.Learner(next(ids), words[kind], stub=True) for _ in range(number)]
        elif number:
            names = spread(_entries(kind, entries), number)
            learners += [demo.Learner(next(ids), f"{words[kind]}: {name}", code=(name,)) for name in names]
    return learners


def correct_learners(count, prefix="correct"):
    """``count`` demo learners with correct answers, spread over the course's correct entries."""
    names = spread(_entries(CORRECT, edges.class_entries()), count)
    return [demo.Learner(i, f"correct: {name}", code=(name,)) for i, name in zip(_ids(count, prefix), names)]


def _first_solution(nb):
    """The first code cell nbgrader marks as a solution, None if there is none."""
    solutions = (
        c for c in nb["cells"] if c["cell_type"] == "code" and c["metadata"].get("nbgrader", {}).get("solution")
    )
    return next(solutions, None)


def sign(dest, learners):
    """Add a comment naming the learner to the first solution cell of each of their notebooks (none untouched, and
    none of a notebook without a solution cell)."""
    for learner in learners:
        if learner.stub:
            continue
        for path in sorted((Path(dest) / learner.student_id).glob("*/*.ipynb")):
            nb = json.loads(path.read_text(encoding="utf-8"))
            cell = _first_solution(nb)
            if cell is None:
                continue
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = (source.rstrip("\n") + f"\n# {learner.student_id}'s own copy").splitlines(keepends=True)
            path.write_text(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def write(dest, release, learners, signed=True):
    """Write ``learners`` into ``dest`` in nbgrader's submitted/ layout (no timestamps: nobody is late); sign each
    learner's notebooks unless ``signed`` is False."""
    written = demo.build(Path(dest), Path(release), {}, cohort=tuple(learners))
    if signed:
        sign(dest, learners)
    return written


def copy_learner(dest, student, count, prefix="copy"):
    """Copy ``dest/student`` to ``count`` learners ``<prefix><n>``, removing the original; return their ids."""
    dest = Path(dest)
    ids = _ids(count, prefix)
    for student_id in ids:
        shutil.copytree(dest / student, dest / student_id)
    shutil.rmtree(dest / student)
    return ids
