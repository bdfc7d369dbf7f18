"""Modules of one job: no module of the machinery (autograder/) is over MAX_LINES lines."""

from tests.conftest import ROOT

MAX_LINES = 400


def lengths():
    """{path from the kit's root: its number of lines} of every module under autograder/."""
    return {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted((ROOT / "autograder").rglob("*.py"))
    }


def over(found, most=MAX_LINES):
    """'path: N lines' of each module of ``found`` longer than ``most`` lines."""
    return [f"{path}: {count} lines" for path, count in found.items() if count > most]


def test_no_module_of_the_machinery_is_over_400_lines():
    found = lengths()
    assert len(found) > 50, "the modules of autograder/ were not found"
    too_long = over(found)
    assert not too_long, f"split by what each part does, to at most {MAX_LINES} lines: " + "; ".join(too_long)


def test_a_long_module_is_named_with_its_length():
    """The check is real: a module one line over is named, with its length; one at the limit is not."""
    assert over({"autograder/a.py": MAX_LINES + 1, "autograder/b.py": MAX_LINES}) == [
        f"autograder/a.py: {MAX_LINES + 1} lines"
    ]
