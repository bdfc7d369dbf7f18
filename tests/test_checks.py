"""The hidden-check table itself: stable ids, points, rules (docs/checks.md's copy: tests/test_docs.py)."""

import re

from graphcourse import checks
from tests.conftest import ROOT

ALL = checks.all_checks()


def test_check_ids_are_unique_and_stable_shaped():
    """Every id is 'family/variant' in snake_case, and no two checks share one."""
    ids = [c.id for c in ALL]
    assert len(ids) == len(set(ids))
    for check in ALL:
        assert re.fullmatch(r"[a-z_]+/[a-z_]+", check.id), check.id
        assert check.family in checks.FAMILIES


def test_points_per_function():
    """Every function the lessons grade has hidden checks, worth a whole number of points in all."""
    totals = {f: sum(c.points for c in ALL if c.function == f) for f in checks.FUNCTIONS}
    assert all(total > 0 and float(total).is_integer() for total in totals.values()), totals


def test_every_check_states_its_rule_and_has_inputs():
    """Each check names the instruction it enforces and has at least one input."""
    for check in ALL:
        assert check.rule.endswith(".") and len(check.rule) > 30, check.id
        assert check.inputs() or check.strategy is not None, check.id
        assert check.function in checks.FUNCTIONS


def test_checks_hold_no_expected_answers():
    """Cases carry inputs only: expected values are computed from the reference at grading time."""
    for check in ALL:
        for case in check.inputs():
            assert set(case.kwargs) <= {"output"}, check.id
            assert set(case.flags) <= {"return_args", "mutate_result"}, check.id


def test_every_family_file_is_found_and_names_its_checks():
    """Families are the files of graphcourse/checks/: each one's checks carry its name, so none hides in another."""
    files = {path.stem for path in (ROOT / "graphcourse" / "checks").glob("*.py")} - {"__init__", "__main__"}
    assert set(checks.FAMILIES) == files
    for module in checks.family_modules():
        family = module.__name__.rsplit(".", 1)[1]
        assert module.CHECKS and all(check.family == family for check in module.CHECKS), family
