"""Judges by property, for a course's judges part to build on: what an answer must satisfy, not one answer.

Each takes the Case and the sandbox reply (plus what the property needs) and returns None when the
reply has the property, or a Failure that says which part of it is missing. None of them needs the
reference's answer to equal the learner's: any valid order passes ``in_valid_order``.

    equal(case, reply, want, tolerance=None)   the plain value, exactly (big integers included), or
                                               numbers within a relative tolerance
    raises_naming(case, reply, names)          ValueError whose message names one of ``names``
    in_valid_order(case, reply, items, before) a list holding each of ``items`` once, every
                                               (a, b) of ``before`` with a listed ahead of b
"""

import math
import re

from autograder.grading.compare import Failure, no_answer, short


def same(got, want, tolerance=None):
    """Whether a plain value equals ``want``: exact types and values, numbers (not bools) within ``tolerance``."""
    numbers = {int, float}
    if tolerance is not None and type(want) in numbers and type(got) in numbers:
        return math.isfinite(got) and math.isclose(got, want, rel_tol=tolerance, abs_tol=tolerance)
    if type(got) is not type(want):
        return False
    if type(want) is list:
        return len(got) == len(want) and all(same(g, w, tolerance) for g, w in zip(got, want))
    if type(want) is dict:
        return got.keys() == want.keys() and all(same(got[k], want[k], tolerance) for k in want)
    return got == want


def equal(case, reply, want, tolerance=None):
    failure = no_answer(case, reply)
    if failure:
        return failure
    got = reply.get("value")
    if same(got, want, tolerance):
        return None
    within = f" (within {tolerance:g})" if tolerance is not None else ""
    return Failure(case, f"expected {short(want)}{within}, got {short(got)}", got=got)


def raises_naming(case, reply, names):
    """A ValueError whose message names one of ``names``, each as a whole word."""
    if reply.get("status") == "ok":
        return Failure(case, f"expected ValueError, but {case.fn} returned {short(reply.get('value'))}")
    error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
    if reply.get("status") != "raised" or error.get("value_error") is not True:
        failure = no_answer(case, reply)
        failure.summary = f"expected ValueError, but {failure.summary}"
        return failure
    message = str(error.get("message", ""))
    if any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message) for name in names):
        return None
    return Failure(
        case,
        f"{case.fn} raised ValueError({short(message, 120)}), but the message should name one of "
        f"{short(sorted(names))}",
        status="raised",
        error_type="ValueError",
    )


def in_valid_order(case, reply, items, before):
    """A list of each item once, in an order that keeps every (a, b) of ``before`` with a first."""
    failure = no_answer(case, reply)
    if failure:
        return failure
    got = reply.get("value")
    if type(got) is not list or not all(type(item) is str for item in got):
        return Failure(case, f"{case.fn} should return a list of names, but returned {short(got)}")
    expected = set(items)
    # items are distinct as a rule: then the same length and the same set are the same list up to order
    same = (
        len(got) == len(items) and set(got) == expected if len(expected) == len(items) else sorted(got) == sorted(items)
    )
    if not same:
        missing, extra = sorted(set(items) - set(got)), sorted(set(got) - set(items))
        twice = sorted({item for item in got if got.count(item) > 1}) if len(got) < 10_000 else []
        said = (
            f"it lacks {short(missing)}"
            if missing
            else f"it lists {short(extra)}, which it should not"
            if extra
            else f"it lists {short(twice)} more than once"
        )
        return Failure(case, f"{case.fn} should list each of the {len(items)} items exactly once, but {said}", got=got)
    position = {item: i for i, item in enumerate(got)}
    wrong = next(((a, b) for a, b in before if position[a] > position[b]), None)
    if wrong:
        return Failure(case, f"{wrong[1]!r} comes before {wrong[0]!r}, which it needs", got=got)
    return None
