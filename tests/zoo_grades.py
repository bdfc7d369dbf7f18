"""Grade every zoo entry, the reference and the stub once per test session, two at a time."""

from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache

from autograder.grading import zoo
from autograder.authoring.stubs import REFERENCE, stub_source

REFERENCE_SOURCE = REFERENCE.read_text()
STUB_SOURCE = stub_source(REFERENCE_SOURCE)


def sources():
    """{name: module source} for the reference, the stub and every zoo entry."""
    named = {"reference": REFERENCE_SOURCE, "stub": STUB_SOURCE}
    for entry in zoo.entries():
        named[entry.name] = zoo.source(entry, REFERENCE_SOURCE, STUB_SOURCE)
    return named


def grade_source(item):
    """Grade one source; return plain data: {check id: (score, points, summary, misconception)}."""
    from autograder.grading.runner import grade
    from autograder.grading.submission import Chunk, Submission

    name, source = item
    result = grade(Submission(name, [Chunk(name, source)]))
    return name, {
        r.check.id: (r.score, r.check.points, r.failure.summary if r.failure else "", r.misconception)
        for r in result.results
    }


@lru_cache(maxsize=1)
def all_grades():
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(grade_source, sorted(sources().items())))
