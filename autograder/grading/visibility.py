"""When a learner sees each test of their Gradescope results: per check family, set in the course config.

    c.GradescopeResults.visibility = {"property": "after_due_date", "deep_graph": "hidden"}

Gradescope shows a test ``"visible"`` (at once), ``"after_due_date"``, ``"after_published"``
(once the grades are published) or ``"hidden"`` (to instructors only). A key is a check
family (one file of the course's checks), or one
of two groups: ``"property"`` (every check that tries generated examples) and ``"answers"``
(the answer cells). A family's own entry wins over its group's; every other test stays
``"visible"``, as without the setting. ``make gradescope`` reads the setting when it builds
the zip (autograder/authoring/gradescope.py, where its traitlets class is) and gives it to
``python -m autograder grade`` as ``--visibility KEY=LEVEL``.
"""

from autograder.grading import graded_tests

LEVELS = ("visible", "after_due_date", "after_published", "hidden")
GROUPS = ("property", "answers")
DEFAULT = "visible"


class VisibilityError(ValueError):
    """A visibility setting names no family or group, or no level; the message lists what there is."""


def checked(visibility, families):
    """``visibility`` ({key: level}) when every key is a family or a group and every level is Gradescope's."""
    for key, level in visibility.items():
        if key not in families and key not in GROUPS:
            raise VisibilityError(
                f"{key!r} is no check family of the course nor one of {', '.join(GROUPS)}; "
                f"the families are {', '.join(sorted(families))}"
            )
        if level not in LEVELS:
            raise VisibilityError(f"{key}={level!r}: Gradescope's visibilities are {', '.join(LEVELS)}")
    return dict(visibility)


def parse(pairs, families):
    """{key: level} from ``KEY=LEVEL`` texts (the command line's), checked; VisibilityError otherwise."""
    found = {}
    for pair in pairs:
        key, sep, level = pair.partition("=")
        if not sep:
            raise VisibilityError(f"{pair!r} is not KEY=LEVEL (e.g. property=after_due_date)")
        found[key.strip()] = level.strip()
    return checked(found, families)


def level_of(test, visibility, property_families):
    """The visibility of ``test``, from its parts (graded_tests.parts_of), never its name."""
    parts = graded_tests.parts_of(test)
    if "answer" in parts:
        return visibility.get("answers", DEFAULT)
    family = parts.get("family")
    if family in visibility:
        return visibility[family]
    if family in property_families:
        return visibility.get("property", DEFAULT)
    return DEFAULT


def apply(results, visibility, property_families):
    """A copy of ``results`` whose tests carry the visibility their family or group is given."""
    if not visibility:
        return results
    tests = [dict(test, visibility=level_of(test, visibility, property_families)) for test in results.get("tests", [])]
    return dict(results, tests=tests)
