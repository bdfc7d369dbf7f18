"""Benchmark cohorts: learners made from the misconception zoo, and cohorts of identical copies.

``zoo_learners(n)`` gives n learners, each handing in both lessons with the code of one zoo
entry (the reference elsewhere), the entries spread evenly over the zoo and cycled when
n is larger, so a cohort is the same on every run. They are written as nbgrader's
submitted/ folder by the demo cohort's own builder (graphcourse/demo.py).

``copy_learner`` repeats one learner's folder byte for byte under new ids: every copy is
handed to nbgrader and the batch, while the hidden checks grade its code once (the
grade cache recognises identical code).
"""

import shutil
from pathlib import Path

from autograder.course import active

zoo, demo = active.part("zoo"), active.part("demo")


def spread(items, count):
    """``count`` items taken evenly across ``items`` (all of them once before any repeats), in a fixed order."""
    items = list(items)
    if not items:
        return []
    if count <= len(items):
        return [items[i * len(items) // count] for i in range(count)]
    return [items[i % len(items)] for i in range(count)]


def zoo_learners(count, prefix="learner"):
    """``count`` demo learners, each with the code of one zoo entry."""
    width = len(str(max(count - 1, 0)))
    return [
        demo.Learner(f"{prefix}{i:0{width}d}", entry.description, code=(entry.name,))
        for i, entry in enumerate(spread(zoo.entries(), count))
    ]


def write(dest, release, learners):
    """Write ``learners`` into ``dest`` in nbgrader's submitted/ layout (no timestamps: nobody is late)."""
    return demo.build(Path(dest), Path(release), {}, cohort=tuple(learners))


def copy_learner(dest, student, count, prefix="copy"):
    """Copy ``dest/student`` to ``count`` learners ``<prefix><n>``, removing the original; return their ids."""
    dest = Path(dest)
    width = len(str(max(count - 1, 0)))
    ids = [f"{prefix}{i:0{width}d}" for i in range(count)]
    for student_id in ids:
        shutil.copytree(dest / student, dest / student_id)
    shutil.rmtree(dest / student)
    return ids
